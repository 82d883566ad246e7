// SPDX-License-Identifier: Apache-2.0
#include "util/kept_sockets.h"

#include <pthread.h>
#include <unistd.h>

#include "util/file_stat.h"

namespace rk8s {
namespace {

constexpr size_t kShelfSize = 16;

struct Slot {
  bool used;
  KeptSocket s;
};

Slot shelf[kShelfSize];
SpinLock guard;
Once atfork_once;

void lock_shelf() { guard.lock(); }
void unlock_shelf() { guard.unlock(); }

// Held across fork, so the child sees whole slots.
void close_in_child() {
  for (Slot& slot : shelf) {
    if (slot.used) close(slot.s.fd);
    slot.used = false;
  }
  guard.unlock();
}

void register_atfork() { pthread_atfork(lock_shelf, unlock_shelf, close_in_child); }

bool still_ours(const KeptSocket& s) {
  struct stat st;
  return stat_fd(s.fd, &st) && S_ISSOCK(st.st_mode) && st.st_dev == s.dev && st.st_ino == s.ino;
}

}  // namespace

bool identify(KeptSocket& s) {
  struct stat st;
  if (!stat_fd(s.fd, &st)) return false;
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  return true;
}

bool take_kept(KeptSocket::Use use, const IpAddr& key, KeptSocket& out) {
  atfork_once.run(register_atfork);
  bool found = false;
  guard.lock();
  for (Slot& slot : shelf) {
    if (slot.used && slot.s.use == use && same_ip(slot.s.key, key)) {
      out = slot.s;
      slot.used = false;
      found = true;
      break;
    }
  }
  guard.unlock();
  // A descriptor that is no longer ours is not ours to close either.
  return found && still_ours(out);
}

bool keep(const KeptSocket& s) {
  if (s.fd <= 2) return false;
  atfork_once.run(register_atfork);
  bool done = false;
  guard.lock();
  for (Slot& slot : shelf) {
    if (!slot.used) {
      slot = Slot{true, s};
      done = true;
      break;
    }
  }
  guard.unlock();
  return done;
}

}  // namespace rk8s
