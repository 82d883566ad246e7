// SPDX-License-Identifier: Apache-2.0
// A system file parsed into a T and parsed again when its stat identity
// changes: device, inode, size, mtime and ctime, the test glibc makes of
// resolv.conf. One parse is shared by the threads holding it and freed by
// the last; the file is read and parsed outside the lock. A forked child
// starts afresh, never waiting for a lock another thread held at fork:
// the fork handler keeps a list of every instance, so instances are
// constinit statics (no constructor runs, none is ever destroyed).
#pragma once

#include <stdlib.h>
#include <sys/types.h>
#include <time.h>

#include "util/base.h"

namespace rk8s {

// A whole file in a malloc'd buffer (NUL-terminated); free() it.
struct FileBytes {
  char* data = nullptr;
  size_t size = 0;
};
// False when the file cannot be opened or read.
bool read_file(const char* path, FileBytes& out);

struct FileIdentity {
  dev_t dev;
  ino_t ino;
  off_t size;
  timespec mtime;
  timespec ctime;
  bool exists;
};
FileIdentity identity_of(const char* path);
bool same_identity(const FileIdentity& a, const FileIdentity& b);

// What every WatchedFile shares: its lock, its current parse, and its
// place in the list the fork handler resets.
class WatchedFileBase {
 protected:
  constexpr WatchedFileBase(const char* path, bool retry_unreadable)
      : path_(path), retry_unreadable_(retry_unreadable) {}
  void lock();  // registers for fork on first use
  void unlock() { lock_.unlock(); }

  const char* path_;
  const bool retry_unreadable_;
  void* held_ = nullptr;  // the current parse, a WatchedFile<T>::Parsed
  bool frozen_ = false;   // held_ is final: the file is not looked at again

 private:
  friend void forget_watched_files();
  SpinLock lock_;
  bool registered_ = false;
  WatchedFileBase* next_ = nullptr;
};

template <class T>
class WatchedFile : WatchedFileBase {
  struct Parsed {
    int refs;
    FileIdentity id;
    FileBytes file;  // the text T may point into
    T value;
  };

 public:
  // Makes T of the file's text (empty when there is no file); returns
  // whether to look at the file again (false: the libc reads it once). A
  // file that went missing is looked at again if it was before.
  using Parse = bool (*)(Str text, T& out);

  // A file that exists but cannot be read now (no descriptor left):
  // `retry_unreadable` leaves it to the next call, else it counts as empty.
  constexpr WatchedFile(const char* path, Parse parse, bool retry_unreadable)
      : WatchedFileBase(path, retry_unreadable), parse_(parse) {}

  // Another file in this one's place, set before the first use (the
  // diagnostic command's --conf).
  void read_instead(const char* path) { path_ = path; }

  // The parse, held while in scope; empty when the file could not be read.
  class Ref {
   public:
    Ref(WatchedFile* owner, Parsed* p) : owner_(owner), p_(p) {}
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    ~Ref() { owner_->release(p_); }
    explicit operator bool() const { return p_ != nullptr; }
    const T& operator*() const { return p_->value; }
    const T* operator->() const { return &p_->value; }

   private:
    WatchedFile* owner_;
    Parsed* p_;
  };

  Ref current() {
    FileIdentity id{};
    if (!__atomic_load_n(&frozen_, __ATOMIC_ACQUIRE)) id = identity_of(path_);
    lock();
    Parsed* p = static_cast<Parsed*>(held_);
    if (p && (frozen_ || same_identity(id, p->id))) {
      p->refs++;
      unlock();
      return Ref(this, p);
    }
    unlock();
    bool read = false, watch = true;
    Parsed* fresh = load(id, read, watch);
    if (!fresh) return Ref(this, nullptr);
    lock();
    Parsed* old = static_cast<Parsed*>(held_);
    held_ = fresh;
    __atomic_store_n(&frozen_, !watch && (read || !old), __ATOMIC_RELEASE);
    unlock();
    release(old);
    return Ref(this, fresh);
  }

 private:
  // A parse with two references: the file's and the caller's.
  Parsed* load(const FileIdentity& id, bool& read, bool& watch) {
    FileBytes file;
    read = id.exists && read_file(path_, file);
    if (id.exists && !read && retry_unreadable_) return nullptr;
    Parsed* p = static_cast<Parsed*>(malloc(sizeof(Parsed)));
    if (!p) {
      free(file.data);
      return nullptr;
    }
    *p = Parsed{2, id, file, T{}};
    watch = parse_(Str{file.data, file.size}, p->value);
    return p;
  }

  void release(Parsed* p) {
    if (!p) return;
    lock();
    bool last = --p->refs == 0;
    unlock();
    if (!last) return;
    free(p->file.data);
    free(p);
  }

  const Parse parse_;
};

}  // namespace rk8s
