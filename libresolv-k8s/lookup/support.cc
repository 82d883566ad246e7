// SPDX-License-Identifier: Apache-2.0
// Per-server autopath support (support.h): a few slots, the oldest
// replaced, a "no" expiring.
#include "lookup/support.h"

#include <pthread.h>
#include <time.h>


namespace rk8s {
namespace {

constexpr size_t kSlots = 8;
constexpr uint32_t kForgetAfter = 300;  // seconds

struct Slot {
  IpAddr server;
  Support support;
  uint32_t until;  // 0: for good
};

Slot slots[kSlots];
size_t next_victim;
SpinLock guard;

uint32_t now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint32_t(ts.tv_sec);
}

bool current(const Slot& s, uint32_t now) {
  return s.support != Support::unknown && (s.until == 0 || now < s.until);
}

Slot* find(const IpAddr& server) {
  for (Slot& s : slots)
    if (s.support != Support::unknown && same_ip(s.server, server)) return &s;
  return nullptr;
}

// A child forked while another thread held the lock starts afresh.
void forget_in_child() {
  for (Slot& s : slots) s = Slot{};
  guard = SpinLock{};
}

Once atfork_once;
void register_atfork() { pthread_atfork(nullptr, nullptr, forget_in_child); }

}  // namespace

const char* support_name(Support s) {
  static const char* const names[] = {"unknown", "yes", "no", "formerr"};
  return names[int(s)];
}

Support server_support(const IpAddr& server) {
  atfork_once.run(register_atfork);
  uint32_t now = now_seconds();
  guard.lock();
  Slot* s = find(server);
  Support result = s && current(*s, now) ? s->support : Support::unknown;
  guard.unlock();
  return result;
}

void remember_support(const IpAddr& server, Support support) {
  uint32_t now = now_seconds();
  guard.lock();
  Slot* s = find(server);
  if (!s) {
    s = &slots[next_victim];
    next_victim = (next_victim + 1) % kSlots;
    s->server = server;
  }
  s->support = support;
  s->until = support == Support::yes ? 0 : now + kForgetAfter;
  guard.unlock();
}

size_t known_support(ServerSupport* out, size_t cap) {
  uint32_t now = now_seconds();
  size_t n = 0;
  guard.lock();
  for (const Slot& s : slots)
    if (n < cap && current(s, now)) out[n++] = ServerSupport{s.server, s.support};
  guard.unlock();
  return n;
}

}  // namespace rk8s
