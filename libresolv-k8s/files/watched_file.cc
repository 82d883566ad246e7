// SPDX-License-Identifier: Apache-2.0
// Reading files, their stat identity, and the fork reset of WatchedFile.
#include "files/watched_file.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "util/file_stat.h"

namespace rk8s {

bool read_file(const char* path, FileBytes& out) {
  out = FileBytes{};
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  size_t cap = 4096;
  char* buf = static_cast<char*>(malloc(cap + 1));
  size_t len = 0;
  while (buf) {
    if (len == cap) {
      char* bigger = static_cast<char*>(realloc(buf, cap * 2 + 1));
      if (!bigger) break;
      buf = bigger;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) break;
    if (n == 0) {
      close(fd);
      buf[len] = 0;
      out = FileBytes{buf, len};
      return true;
    }
    len += size_t(n);
  }
  free(buf);
  close(fd);
  return false;
}

FileIdentity identity_of(const char* path) {
  struct stat st;
  if (!stat_path(path, &st)) return FileIdentity{};
  return FileIdentity{st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim, true};
}

bool same_identity(const FileIdentity& a, const FileIdentity& b) {
  return a.exists == b.exists && a.dev == b.dev && a.ino == b.ino && a.size == b.size &&
         a.mtime.tv_sec == b.mtime.tv_sec && a.mtime.tv_nsec == b.mtime.tv_nsec &&
         a.ctime.tv_sec == b.ctime.tv_sec && a.ctime.tv_nsec == b.ctime.tv_nsec;
}

namespace {

WatchedFileBase* watched;  // every WatchedFile used so far
SpinLock list_lock;
Once atfork_once;

}  // namespace

// A child forked while another thread held a lock, or was installing a
// parse, must neither wait for it nor trust the parse: it leaks the
// parent's parses and reads the files again.
void forget_watched_files() {
  list_lock = SpinLock{};
  for (WatchedFileBase* f = watched; f; f = f->next_) {
    f->lock_ = SpinLock{};
    f->held_ = nullptr;
    f->frozen_ = false;
  }
}

static void register_atfork() { pthread_atfork(nullptr, nullptr, forget_watched_files); }

void WatchedFileBase::lock() {
  if (!__atomic_load_n(&registered_, __ATOMIC_ACQUIRE)) {
    atfork_once.run(register_atfork);
    list_lock.lock();
    if (!registered_) {
      next_ = watched;
      watched = this;
      __atomic_store_n(&registered_, true, __ATOMIC_RELEASE);
    }
    list_lock.unlock();
  }
  lock_.lock();
}

}  // namespace rk8s
