// Which servers understand the autopath option, remembered for the whole
// process: a "no" expires, so a server that gains support is found again.
#include <pthread.h>
#include <sys/socket.h>

#include "lookup.h"

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
int lock_word;

void lock() {
  while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) {
  }
}
void unlock() { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

bool same(const Nameserver& a, const Nameserver& b) {
  size_t n = a.family == AF_INET ? 4 : 16;
  return a.family == b.family && a.scope_id == b.scope_id && memcmp(a.addr, b.addr, n) == 0;
}

Slot* find(const Nameserver& ns) {
  for (Slot& s : slots)
    if (s.support != Support::unknown && same(s.ns, ns)) return &s;
  return nullptr;
}

// A child forked while another thread held the lock starts afresh.
void forget_in_child() {
  for (Slot& s : slots) s = Slot{};
  lock_word = 0;
}

pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
void register_atfork() { pthread_atfork(nullptr, nullptr, forget_in_child); }

}  // namespace

Support server_support(const Nameserver& ns, uint32_t now) {
  pthread_once(&atfork_once, register_atfork);
  lock();
  Slot* s = find(ns);
  Support result = Support::unknown;
  if (s && (s->until == 0 || now < s->until)) result = s->support;
  unlock();
  return result;
}

void remember_support(const Nameserver& ns, Support support, uint32_t now) {
  lock();
  Slot* s = find(ns);
  if (!s) {
    s = &slots[next_victim];
    next_victim = (next_victim + 1) % kSlots;
    s->ns = ns;
  }
  s->support = support;
  s->until = support == Support::yes ? 0 : now + kForgetAfter;
  unlock();
}

}  // namespace rk8s
