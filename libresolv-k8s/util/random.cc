// SPDX-License-Identifier: Apache-2.0
// Query IDs from the kernel's random pool (random.h), fetched a few dozen
// at a time: glibc makes no system call for its IDs (its clock, through
// the vDSO), and a lookup of ours should not make one either.
#include <pthread.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/random.h"

namespace rk8s {

// When getrandom cannot answer at once (pool not ready, syscall filtered):
// the clock, the pid and a counter, mixed. Weak, but it never blocks.
static uint16_t fallback_id() {
  static uint64_t counter;
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t x = __atomic_add_fetch(&counter, 0x9e3779b97f4a7c15ull, __ATOMIC_RELAXED);
  x ^= uint64_t(ts.tv_nsec) ^ uint64_t(ts.tv_sec) << 32 ^ uint64_t(getpid()) << 16;
  x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ x >> 27) * 0x94d049bb133111ebull;
  return uint16_t(x ^ x >> 31);
}

// Each thread's unused IDs. A forked child must not use its parent's:
// the fork bumps the generation, which empties every pool.
struct IdPool {
  uint16_t ids[32];
  uint8_t left;
  unsigned generation;
};
static __thread IdPool pool __attribute__((tls_model("initial-exec")));
static unsigned fork_generation;
static Once atfork_once;

static void forked() { fork_generation++; }
static void register_atfork() { pthread_atfork(nullptr, nullptr, forked); }

// The system call: glibc's getrandom() is 2.25's, above the preload
// library's floor (mk/preload.mk).
uint16_t random_query_id() {
  atfork_once.run(register_atfork);
  IdPool& p = pool;
  if (p.generation != fork_generation) p.left = 0;
  if (p.left == 0) {
    if (syscall(SYS_getrandom, p.ids, sizeof p.ids, GRND_NONBLOCK) != sizeof p.ids) return fallback_id();
    p.left = sizeof p.ids / sizeof p.ids[0];
    p.generation = fork_generation;
  }
  return p.ids[--p.left];
}

}  // namespace rk8s
