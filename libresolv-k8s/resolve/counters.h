// SPDX-License-Identifier: Apache-2.0
// The process's counters, since it started (all threads): what the stats
// file and `resolv-k8s lookup` report.
#pragma once

#include "lookup/lookup.h"

namespace rk8s {

constexpr size_t kDurationBounds = 16;
// The buckets' upper bounds in microseconds: 100 us to 10 s.
extern const uint32_t kDurationBoundUs[kDurationBounds];

struct Counters {
  uint64_t lookups;          // calls we answered
  uint64_t dns_lookups;      // walks that reached DNS
  uint64_t queries;          // queries we sent
  uint64_t classic_queries;  // queries the libc's walk would have sent
  uint64_t autopath;         // walks the server did for us
  uint64_t fallbacks;        // walks where the server could not
  uint64_t libc;             // calls handed to libc
  // How long every call took, ours and libc's: a histogram (the last
  // bucket above every bound) and the sum.
  uint64_t duration_buckets[kDurationBounds + 1];
  uint64_t duration_us_sum;
};
Counters counters();
void count_lookup();
void count_libc_call();
void count_walk(const LookupResult& r);

// A monotonic clock reading for count_duration, which counts one call.
uint64_t duration_start();
void count_duration(uint64_t start);

}  // namespace rk8s
