// SPDX-License-Identifier: Apache-2.0
// A few slots, process-wide, under a spin lock: a lookup touches them once
// per server it asks, and the lock is held for a copy.
#include <pthread.h>
#include <time.h>

#include "transport/dead_servers.h"

namespace rk8s {
namespace {

struct Dead {
  IpAddr server;
  long until;  // CLOCK_MONOTONIC seconds; 0: a free slot
};

constexpr size_t kSlots = 8;
Dead dead[kSlots];
SpinLock guard;

long now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return long(ts.tv_sec) + 1;  // never 0
}

// A child forked while another thread held the lock would spin forever: it
// starts unlocked. The slots stay: one the other thread left half-written
// at worst puts one server in the wrong place for kDeadServerSeconds.
void unlock_in_child() { guard = SpinLock{}; }

Once atfork_once;
void register_atfork() { pthread_atfork(nullptr, nullptr, unlock_in_child); }

void lock() {
  atfork_once.run(register_atfork);
  guard.lock();
}
void unlock() { guard.unlock(); }

Dead* slot_of(const IpAddr& server, long t) {
  for (Dead& d : dead)
    if (d.until > t && same_ip(d.server, server)) return &d;
  return nullptr;
}

}  // namespace

bool server_is_dead(const IpAddr& server) {
  long t = now();
  lock();
  bool is = slot_of(server, t) != nullptr;
  unlock();
  return is;
}

void note_server(const IpAddr& server, bool answered) {
  long t = now();
  lock();
  Dead* d = slot_of(server, t);
  if (answered) {
    if (d) d->until = 0;
  } else {
    if (!d) {  // a free or expired slot, else the one that ends first
      d = &dead[0];
      for (Dead& s : dead)
        if (s.until < d->until) d = &s;
      d->server = server;
    }
    d->until = t + kDeadServerSeconds;
  }
  unlock();
}

void forget_dead_servers() {
  lock();
  for (Dead& d : dead) d.until = 0;
  unlock();
}

}  // namespace rk8s
