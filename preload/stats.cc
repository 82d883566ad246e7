// SPDX-License-Identifier: Apache-2.0
// RESOLV_K8S_STATS=PATH: the process's counters in PATH as Prometheus
// text, a block labelled with its pid: at exit, and while it runs, from the
// lookup path, at most every kEverySeconds (no thread). Each block holds
// the counts so far and replaces the process's last; the file keeps the
// blocks of the kMaxBlocks processes that wrote last.
//
// PATH may sit in a directory others write to (an emptyDir is 0777): no
// component of it is ever followed as a symlink, it is written only when it
// is a regular file of our own with no other name, and never waited for: a
// write that finds the file locked is skipped, and the next one carries the
// counts.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "lookup/support.h"
#include "resolve/counters.h"
#include "stats.h"
#include "switches.h"
#include "util/file_stat.h"
#include "util/secure_env.h"

namespace rk8s {
namespace {

// A forked child starts with its parent's counts: it reports only its own.
Counters at_fork;

void forked() { at_fork = counters(); }

__attribute__((constructor)) void watch_forks() {
  if (!stepped_aside()) pthread_atfork(nullptr, nullptr, forked);
}

constexpr uint64_t kEverySeconds = 5;
uint64_t last_written;  // CLOCK_MONOTONIC seconds; 0: never

uint64_t now_seconds() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec);
}

// The path to write to, or null: unset, switched off, or a setuid program
// (which must not write to a file its caller names). Read once: every
// lookup asks, and the environment does not change under it (switches.cc).
const char* stats_path() {
  static const char* cached;  // "" for none
  const char* path = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (!path) {
    const char* e = stepped_aside() ? nullptr : secure_env("RESOLV_K8S_STATS");
    path = e ? e : "";
    __atomic_store_n(&cached, path, __ATOMIC_RELAXED);
  }
  return *path ? path : nullptr;
}

constexpr size_t kBlockBytes = 4096;  // exe, 8 counters, the histogram and 8 servers always fit
constexpr size_t kMaxBlocks = 64;
constexpr char kHeader[] = "# resolv-k8s pid=";

// The offset of the block header at or after `from` in text[0..len), or len.
size_t next_header(const char* text, size_t len, size_t from) {
  for (size_t p = from; p < len;) {
    if (len - p >= sizeof kHeader - 1 && memcmp(text + p, kHeader, sizeof kHeader - 1) == 0) return p;
    const void* nl = memchr(text + p, '\n', len - p);
    p = nl ? size_t(static_cast<const char*>(nl) - text) + 1 : len;
  }
  return len;
}

// The directory PATH's file is in, reached without following a symlink in
// any component (O_NOFOLLOW on the file covers the last alone: a directory
// on the way may be one a symlink replaced), and the file's name in *name.
// -1 when it cannot be.
int open_parent(const char* path, const char** name) {
  int dir = open(*path == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (const char* p = path; dir >= 0;) {
    while (*p == '/') p++;
    const char* end = strchr(p, '/');
    if (!end) {
      *name = p;
      return dir;
    }
    char component[NAME_MAX + 1];
    int next = -1;
    if (size_t(end - p) <= NAME_MAX) {
      memcpy(component, p, size_t(end - p));
      component[end - p] = 0;
      next = openat(dir, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    close(dir);
    dir = next;
    p = end;
  }
  return -1;
}

// PATH opened to be rewritten: through no symlink (open_parent,
// O_NOFOLLOW), a regular file (O_NONBLOCK: a FIFO or device in its place
// neither blocks the open nor is written), ours, with one link (a hard link
// planted to someone else's file), and locked without waiting. -1
// otherwise.
int open_own_file(const char* path) {
  const char* name;
  int dir = open_parent(path, &name);
  if (dir < 0) return -1;
  int fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  close(dir);
  if (fd < 0) return -1;
  struct stat st;
  if (stat_fd(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1 &&
      flock(fd, LOCK_EX | LOCK_NB) == 0)
    return fd;
  close(fd);
  return -1;
}

// PATH rewritten in place under an exclusive lock (`resolv-k8s stats`
// reads it under a shared one): the other processes' blocks but the oldest
// beyond kMaxBlocks, then this one's. A file too large to be one of ours
// (an older library appended to it) starts anew.
void replace_block(const char* path, const char* block, size_t len) {
  int fd = open_own_file(path);
  if (fd < 0) return;
  char* text = static_cast<char*>(malloc((kMaxBlocks + 1) * kBlockBytes));
  if (text) {
    size_t have = 0;
    for (ssize_t n; have < kMaxBlocks * kBlockBytes &&
                    (n = pread(fd, text + have, kMaxBlocks * kBlockBytes - have, off_t(have))) > 0;)
      have += size_t(n);
    if (have == kMaxBlocks * kBlockBytes) have = 0;
    // Ours by its first line, pid and program: containers of a pod have pid
    // namespaces of their own, and may share the file.
    const void* nl = memchr(block, '\n', len);
    size_t ours_len = nl ? size_t(static_cast<const char*>(nl) - block) + 1 : len;
    auto is_ours = [&](size_t at, size_t end) {
      return end - at >= ours_len && memcmp(text + at, block, ours_len) == 0;
    };
    size_t others = 0;
    for (size_t at = next_header(text, have, 0), end; at < have; at = end)
      end = next_header(text, have, at + 1), others += !is_ours(at, end);
    // The others' blocks packed to the front, the oldest left out.
    size_t skip = others >= kMaxBlocks ? others - (kMaxBlocks - 1) : 0, kept = 0;
    for (size_t at = next_header(text, have, 0), end; at < have; at = end) {
      end = next_header(text, have, at + 1);
      if (is_ours(at, end)) continue;
      if (skip) {
        skip--;
        continue;
      }
      memmove(text + kept, text + at, end - at);
      kept += end - at;
    }
    memcpy(text + kept, block, len);
    kept += len;
    if (pwrite(fd, text, kept, 0) == ssize_t(kept)) (void)!ftruncate(fd, off_t(kept));
  }
  free(text);
  close(fd);  // and the lock with it
}

void write_block(const char* path) {
  Counters c = counters();
  const Counters& b = at_fork;
  uint64_t lookups = c.lookups - b.lookups, libc = c.libc - b.libc;
  // Processes that never resolved a name (every shell of the pod) stay silent.
  if (lookups == 0 && libc == 0) return;
  uint64_t sent = c.queries - b.queries, classic = c.classic_queries - b.classic_queries;

  const struct {
    const char* name;
    uint64_t value;
  } metrics[] = {
      {"lookups", lookups},
      {"dns_lookups", c.dns_lookups - b.dns_lookups},
      {"queries_sent", sent},
      {"queries_classic", classic},
      {"queries_saved", classic > sent ? classic - sent : 0},
      {"autopath", c.autopath - b.autopath},
      {"fallbacks", c.fallbacks - b.fallbacks},
      {"libc", libc},
  };

  int saved_errno = errno;
  char exe[256];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  long pid = getpid();
  char block[kBlockBytes];
  size_t len = size_t(snprintf(block, sizeof block, "# resolv-k8s pid=%ld exe=%s\n", pid, exe));
  for (const auto& m : metrics)
    len += size_t(snprintf(block + len, sizeof block - len, "resolv_k8s_%s_total{pid=\"%ld\"} %llu\n",
                           m.name, pid, (unsigned long long)m.value));
  // How long lookups took, as a Prometheus histogram.
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= kDurationBounds; i++) {
    cumulative += c.duration_buckets[i] - b.duration_buckets[i];
    char le[16] = "+Inf";
    if (i < kDurationBounds) snprintf(le, sizeof le, "%g", kDurationBoundUs[i] / 1e6);
    len += size_t(snprintf(block + len, sizeof block - len,
                           "resolv_k8s_lookup_duration_seconds_bucket{pid=\"%ld\",le=\"%s\"} %llu\n", pid,
                           le, (unsigned long long)cumulative));
  }
  len += size_t(snprintf(block + len, sizeof block - len,
                         "resolv_k8s_lookup_duration_seconds_sum{pid=\"%ld\"} %g\n"
                         "resolv_k8s_lookup_duration_seconds_count{pid=\"%ld\"} %llu\n",
                         pid, double(c.duration_us_sum - b.duration_us_sum) / 1e6, pid,
                         (unsigned long long)cumulative));
  // What each server showed of autopath support.
  ServerSupport servers[8];
  size_t count = known_support(servers, 8);
  for (size_t i = 0; i < count; i++) {
    char addr[64];
    ip_to_text(servers[i].server, addr, sizeof addr);
    len += size_t(snprintf(block + len, sizeof block - len,
                           "resolv_k8s_server_autopath{pid=\"%ld\",server=\"%s\",support=\"%s\"} 1\n",
                           pid, addr, support_name(servers[i].support)));
  }
  replace_block(path, block, len);
  errno = saved_errno;
}

__attribute__((destructor)) void write_at_exit() {
  if (const char* path = stats_path()) write_block(path);
}

}  // namespace

void stats_tick() {
  const char* path = stats_path();
  if (!path) return;
  uint64_t now = now_seconds(), last = __atomic_load_n(&last_written, __ATOMIC_RELAXED);
  if (last == 0) {  // the first call starts the clock
    __atomic_compare_exchange_n(&last_written, &last, now, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return;
  }
  // One thread of many writes, the one that moves the clock on.
  if (now - last < kEverySeconds ||
      !__atomic_compare_exchange_n(&last_written, &last, now, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return;
  write_block(path);
}
}  // namespace rk8s
