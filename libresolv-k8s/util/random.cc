// SPDX-License-Identifier: Apache-2.0
// Query IDs from the kernel's random pool (random.h).
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

// The system call: glibc's getrandom() is 2.25's, above the preload
// library's floor (mk/preload.mk).
uint16_t random_query_id() {
  uint16_t id;
  if (syscall(SYS_getrandom, &id, sizeof id, GRND_NONBLOCK) == sizeof id) return id;
  return fallback_id();
}

}  // namespace rk8s
