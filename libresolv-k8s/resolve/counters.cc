// SPDX-License-Identifier: Apache-2.0
// The process's counters, updated by every thread.
#include "resolve/counters.h"

#include <time.h>

namespace rk8s {

const uint32_t kDurationBoundUs[kDurationBounds] = {
    100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
    1000000, 2500000, 5000000, 10000000};

namespace {

Counters totals;

void add(uint64_t& c, uint64_t n) { __atomic_fetch_add(&c, n, __ATOMIC_RELAXED); }

}  // namespace

Counters counters() {
  auto get = [](const uint64_t& c) { return __atomic_load_n(&c, __ATOMIC_RELAXED); };
  Counters c{get(totals.lookups), get(totals.dns_lookups), get(totals.queries),
             get(totals.classic_queries), get(totals.autopath), get(totals.fallbacks),
             get(totals.libc), {}, get(totals.duration_us_sum)};
  for (size_t i = 0; i <= kDurationBounds; i++) c.duration_buckets[i] = get(totals.duration_buckets[i]);
  return c;
}

uint64_t duration_start() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000 + uint64_t(ts.tv_nsec) / 1000;
}

void count_duration(uint64_t start) {
  uint64_t us = duration_start() - start;
  size_t i = 0;
  while (i < kDurationBounds && us > kDurationBoundUs[i]) i++;
  add(totals.duration_buckets[i], 1);
  add(totals.duration_us_sum, us);
}

void count_lookup() { add(totals.lookups, 1); }
void count_libc_call() { add(totals.libc, 1); }

void count_walk(const LookupResult& r) {
  add(totals.dns_lookups, 1);
  add(totals.queries, r.queries);
  add(totals.classic_queries, r.classic_queries);
  if (r.autopath_answered) add(totals.autopath, 1);
  if (r.fell_back) add(totals.fallbacks, 1);
}

}  // namespace rk8s
