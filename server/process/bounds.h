// SPDX-License-Identifier: Apache-2.0
// Every bound on what clients can make the server hold, as two gauges to
// alert on: resolv_k8s_limit{limit} (its setting) and
// resolv_k8s_limit_used{limit} (what is held now); and the counters of what
// the bounds turned away outside forwarding's own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rk8s::server {

struct Bound {
  const char* name;  // the knob's: "maxPending", "cache.maxBytes", ...
  uint64_t limit;
  uint64_t used;
  uint64_t peak = 0;  // the most it has held, where that is kept (limit_used_peak)
};

struct TurnedAway {
  uint64_t tcp_refused = 0;          // maxTCPClients or the client's share reached
  uint64_t tcp_unread = 0;           // connections closed with replies left unread
  uint64_t http_evicted = 0;         // idle HTTP connections closed for a newer one
  uint64_t http_refused = 0;         // the client's share reached, its own all being answered
  uint64_t rate_dropped = 0;         // clientQPS
  uint64_t log_lines_held_back = 0;  // lines like one said in the last 10 s
};

std::string render_bounds(const std::vector<Bound>& bounds, const TurnedAway& turned);

}  // namespace rk8s::server
