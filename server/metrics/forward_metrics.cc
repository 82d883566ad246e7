#include "server/metrics/forward_metrics.h"

#include <cstdio>

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
  std::string out =
      "# HELP resolv_k8s_forward_request_duration_seconds Upstream round trips, by upstream and rcode.\n"
      "# TYPE resolv_k8s_forward_request_duration_seconds histogram\n";
  for (const auto& [key, h] : durations_) {
    std::string labels = "to=\"" + key.first + "\",rcode=\"" + key.second + "\"";
    uint64_t cumulative = 0;
    for (int i = 0; i <= kBuckets; i++) {
      cumulative += h.counts[i];
      std::string le = i < kBuckets ? number(bound(i)) : "+Inf";
      out += "resolv_k8s_forward_request_duration_seconds_bucket{" + labels + ",le=\"" + le + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    out += "resolv_k8s_forward_request_duration_seconds_sum{" + labels + "} " + number(h.sum) + "\n";
    out += "resolv_k8s_forward_request_duration_seconds_count{" + labels + "} " +
           std::to_string(cumulative) + "\n";
  }
  out += "# HELP resolv_k8s_forward_healthcheck_failures_total Failed health checks, by upstream.\n"
         "# TYPE resolv_k8s_forward_healthcheck_failures_total counter\n";
  for (const auto& [to, n] : health_failures_)
    out += "resolv_k8s_forward_healthcheck_failures_total{to=\"" + to + "\"} " + std::to_string(n) + "\n";
  out += "# HELP resolv_k8s_forward_healthcheck_broken_total Times every upstream of a zone was down.\n"
         "# TYPE resolv_k8s_forward_healthcheck_broken_total counter\n"
         "resolv_k8s_forward_healthcheck_broken_total " + std::to_string(broken_) + "\n"
         "# HELP resolv_k8s_forward_max_concurrent_rejects_total Queries refused: too many in flight.\n"
         "# TYPE resolv_k8s_forward_max_concurrent_rejects_total counter\n"
         "resolv_k8s_forward_max_concurrent_rejects_total " + std::to_string(rejects_) + "\n";
  return out;
}

}  // namespace rk8s::server
