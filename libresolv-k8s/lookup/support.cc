// Which servers understand the autopath option, remembered for the whole
// process: a "no" expires, so a server that gains support is found again.
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

#include "lookup/lookup.h"

namespace rk8s {
namespace {

constexpr size_t kSlots = 8;
constexpr uint32_t kForgetAfter = 300;  // seconds

struct Slot {
  Nameserver ns;
  Support support;
  uint32_t until;  // 0: for good
};

Slot slots[kSlots];
size_t next_victim;
SpinLock guard;

bool same(const Nameserver& a, const Nameserver& b) {
  size_t n = a.family == AF_INET ? 4 : 16;
  return a.family == b.family && a.scope_id == b.scope_id && memcmp(a.addr, b.addr, n) == 0;
}

uint32_t now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint32_t(ts.tv_sec);
}

bool current(const Slot& s, uint32_t now) {
  return s.support != Support::unknown && (s.until == 0 || now < s.until);
}

Slot* find(const Nameserver& ns) {
  for (Slot& s : slots)
    if (s.support != Support::unknown && same(s.ns, ns)) return &s;
  return nullptr;
}

// A child forked while another thread held the lock starts afresh.
void forget_in_child() {
  for (Slot& s : slots) s = Slot{};
  guard = SpinLock{};
}

pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
void register_atfork() { pthread_atfork(nullptr, nullptr, forget_in_child); }

}  // namespace

Support server_support(const Nameserver& ns) {
  pthread_once(&atfork_once, register_atfork);
  uint32_t now = now_seconds();
  guard.lock();
  Slot* s = find(ns);
  Support result = s && current(*s, now) ? s->support : Support::unknown;
  guard.unlock();
  return result;
}

void remember_support(const Nameserver& ns, Support support) {
  uint32_t now = now_seconds();
  guard.lock();
  Slot* s = find(ns);
  if (!s) {
    s = &slots[next_victim];
    next_victim = (next_victim + 1) % kSlots;
    s->ns = ns;
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
    if (n < cap && current(s, now)) out[n++] = ServerSupport{s.ns, s.support};
  guard.unlock();
  return n;
}

}  // namespace rk8s
