// SPDX-License-Identifier: Apache-2.0
#include "server/process/bounds.h"

#include "common/prometheus.h"

namespace rk8s::server {

std::string render_bounds(const std::vector<Bound>& bounds, const TurnedAway& turned) {
  std::string limits = family("limit", "gauge", "Each bound's setting, by its knob.");
  std::string used = family("limit_used", "gauge", "What each bound holds now, by its knob.");
  std::string peaks = family("limit_used_peak", "gauge", "The most a bound has held since the start, where kept.");
  for (const Bound& b : bounds) {
    std::string label = "limit=\"" + std::string(b.name) + "\"";
    limits += sample("limit", label, b.limit);
    used += sample("limit_used", label, b.used);
    if (b.peak) peaks += sample("limit_used_peak", label, b.peak);
  }
  struct Counter {
    const char* name;
    const char* help;
    uint64_t value;
  };
  const Counter counters[] = {
      {"tcp_refused_total", "TCP connections refused at limits.maxTCPClients or their client's share.",
       turned.tcp_refused},
      {"tcp_unread_closed_total", "TCP connections closed with their replies left unread.", turned.tcp_unread},
      {"http_evicted_total", "Idle HTTP connections closed at limits.maxHTTPClients for a newer one.",
       turned.http_evicted},
      {"http_refused_total", "HTTP connections refused at their client's share, its own all being answered.",
       turned.http_refused},
      {"client_rate_dropped_total", "Queries dropped over limits.clientQPS.", turned.rate_dropped},
      {"log_lines_held_back_total", "Log lines held back, like one said in the last 10 s.",
       turned.log_lines_held_back},
  };
  std::string out = limits + used + peaks;
  for (const Counter& c : counters) out += family(c.name, "counter", c.help) + sample(c.name, "", c.value);
  return out;
}

}  // namespace rk8s::server
