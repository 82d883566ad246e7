// SPDX-License-Identifier: Apache-2.0
// The stats file, stats.cc, and the timing of each call that feeds it.
#pragma once

#include "resolve/counters.h"

namespace rk8s {

// RESOLV_K8S_STATS written while the process runs, at most
// every few seconds; called after each call.
void stats_tick();

// Runs a whole call, ours or libc's, and counts how long it took.
template <class Call>
auto timed(Call call) {
  uint64_t start = duration_start();
  auto result = call();
  count_duration(start);
  stats_tick();
  return result;
}

}  // namespace rk8s
