// SPDX-License-Identifier: Apache-2.0
#include "server/metrics/forward_metrics.h"

#include <cstdio>

#include "server/metrics/prometheus.h"

namespace rk8s::server {
namespace {

double bound(int i) { return 0.00025 * double(1u << i); }

std::string number(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

void ForwardMetrics::request(const std::string& to, const std::string& rcode, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  Histogram& h = durations_[{to, rcode}];
  int i = 0;
  while (i < kBuckets && seconds > bound(i)) i++;
  h.counts[i]++;
  h.sum += seconds;
}

void ForwardMetrics::health_check_failed(const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  health_failures_[to]++;
}

std::string ForwardMetrics::render() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string duration = "forward_request_duration_seconds";
  std::string out = family(duration, "histogram", "Upstream round trips, by upstream and rcode.");
  for (const auto& [key, h] : durations_) {
    std::string labels = "to=\"" + key.first + "\",rcode=\"" + key.second + "\"";
    uint64_t cumulative = 0;
    for (int i = 0; i <= kBuckets; i++) {
      cumulative += h.counts[i];
      std::string le = i < kBuckets ? number(bound(i)) : "+Inf";
      out += sample(duration + "_bucket", labels + ",le=\"" + le + "\"", cumulative);
    }
    out += sample(duration + "_sum", labels, number(h.sum)) + sample(duration + "_count", labels, cumulative);
  }
  out += family("forward_healthcheck_failures_total", "counter", "Failed health checks, by upstream.");
  for (const auto& [to, n] : health_failures_)
    out += sample("forward_healthcheck_failures_total", "to=\"" + to + "\"", n);
  out += family("forward_healthcheck_broken_total", "counter", "Times every upstream of a zone was down.") +
         sample("forward_healthcheck_broken_total", "", broken_) +
         family("forward_max_concurrent_rejects_total", "counter", "Queries refused: too many in flight.") +
         sample("forward_max_concurrent_rejects_total", "", rejects_);
  return out;
}

}  // namespace rk8s::server
