// SPDX-License-Identifier: Apache-2.0
#include "server/forward/metrics.h"

#include "common/prometheus.h"

namespace rk8s::server {
void ForwardMetrics::request(const std::string& to, const std::string& rcode, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  durations_[{to, rcode}].observe(seconds);
}

void ForwardMetrics::health_check(const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  health_checks_[to]++;
}

void ForwardMetrics::health_check_failed(const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  health_failures_[to]++;
}

void ForwardMetrics::upstream_known(const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  upstreams_[to];
}

void ForwardMetrics::upstream_down(const std::string& to, bool down) {
  std::lock_guard<std::mutex> lock(mutex_);
  UpstreamState& s = upstreams_[to];
  if (down) {
    s.down++;
    s.went_down++;
  } else {
    s.down--;
  }
}

void ForwardMetrics::limited(const std::string& limit) {
  if (limit == "maxConcurrent") rejects_++;
  limited_total_++;
  std::lock_guard<std::mutex> lock(mutex_);
  limited_[limit]++;
}

void ForwardMetrics::stale(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  stale_[reason]++;
}

std::string ForwardMetrics::render() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string duration = "forward_request_duration_seconds";
  std::string out = family(duration, "histogram", "Upstream round trips, by upstream and rcode.");
  for (const auto& [key, h] : durations_)
    out += h.samples(duration, "to=\"" + key.first + "\",rcode=\"" + key.second + "\"");
  out += family("forward_healthchecks_total", "counter", "Health checks sent, by upstream.");
  for (const auto& [to, n] : health_checks_) out += sample("forward_healthchecks_total", "to=\"" + to + "\"", n);
  out += family("forward_healthcheck_failures_total", "counter", "Failed health checks, by upstream.");
  for (const auto& [to, n] : health_failures_)
    out += sample("forward_healthcheck_failures_total", "to=\"" + to + "\"", n);
  out += family("forward_upstream_down", "gauge", "Upstreams down by their health checks now, by upstream.");
  for (const auto& [to, s] : upstreams_) out += sample("forward_upstream_down", "to=\"" + to + "\"", s.down);
  out += family("forward_upstream_down_total", "counter", "Times an upstream went down, by upstream.");
  for (const auto& [to, s] : upstreams_)
    out += sample("forward_upstream_down_total", "to=\"" + to + "\"", s.went_down);
  out += family("forward_healthcheck_broken_total", "counter", "Times every upstream of a zone was down.") +
         sample("forward_healthcheck_broken_total", "", broken_) +
         family("forward_max_concurrent_rejects_total", "counter", "Queries refused: too many in flight.") +
         sample("forward_max_concurrent_rejects_total", "", rejects_) +
         family("forward_limited_total", "counter", "Questions turned away, by the limit they met.");
  for (const auto& [limit, n] : limited_) out += sample("forward_limited_total", "limit=\"" + limit + "\"", n);
  out += family("cache_served_stale_total", "counter", "Expired answers served (RFC 8767), by why.");
  for (const auto& [reason, n] : stale_) out += sample("cache_served_stale_total", "reason=\"" + reason + "\"", n);
  out += family("cache_below_nxdomain_total", "counter",
                "Questions answered from an NXDOMAIN cached above them (RFC 8020, autopath.rfc8020Cut).") +
         sample("cache_below_nxdomain_total", "", below_nxdomain_);
  return out + tls_metrics().render();
}

std::string ForwardMetrics::render_coredns() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto replied = [](const std::string& rcode) { return rcode != "timeout" && rcode != "error"; };
  std::map<std::string, uint64_t> requests;
  for (const auto& [key, h] : durations_) requests[key.first] += h.count();
  std::string out = family("forward_requests_total", "counter", "Questions sent upstream, by upstream.", kCoredns);
  for (const auto& [to, n] : requests) out += sample("forward_requests_total", "to=\"" + to + "\"", n, kCoredns);
  out += family("forward_responses_total", "counter", "Upstream replies, by upstream and rcode.", kCoredns);
  for (const auto& [key, h] : durations_)
    if (replied(key.second))
      out += sample("forward_responses_total", "rcode=\"" + key.second + "\",to=\"" + key.first + "\"", h.count(),
                    kCoredns);
  const std::string duration = "forward_request_duration_seconds";
  out += family(duration, "histogram", "Upstream round trips that got a reply, by upstream and rcode.", kCoredns);
  for (const auto& [key, h] : durations_)
    if (replied(key.second)) out += h.samples(duration, "to=\"" + key.first + "\",rcode=\"" + key.second + "\"", kCoredns);
  std::map<std::string, uint64_t> failures = health_failures_;
  for (const auto& [to, s] : upstreams_) failures[to];
  out += family("forward_healthcheck_failures_total", "counter", "Failed health checks, by upstream.", kCoredns);
  for (const auto& [to, n] : failures)
    out += sample("forward_healthcheck_failures_total", "to=\"" + to + "\"", n, kCoredns);
  return out + family("forward_healthcheck_broken_total", "counter", "Times every upstream of a zone was down.", kCoredns) +
         sample("forward_healthcheck_broken_total", "", broken_, kCoredns);
}

TlsMetrics& tls_metrics() {
  static TlsMetrics metrics;
  return metrics;
}

void TlsMetrics::opened(const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  upstreams_[to].opened++;
}

void TlsMetrics::handshake(const std::string& to, bool resumed) {
  std::lock_guard<std::mutex> lock(mutex_);
  Counts& c = upstreams_[to];
  c.handshakes++;
  c.resumed += resumed;
}

void TlsMetrics::failed(const std::string& to, const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  upstreams_[to].failures[reason]++;
}

void TlsMetrics::reused(const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  upstreams_[to].reused++;
}

std::string TlsMetrics::render() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out = family("forward_tls_connections_total", "counter", "TLS connections opened, by upstream.");
  for (const auto& [to, c] : upstreams_) out += sample("forward_tls_connections_total", "to=\"" + to + "\"", c.opened);
  out += family("forward_tls_handshakes_total", "counter", "TLS handshakes done, by upstream and whether resumed.");
  for (const auto& [to, c] : upstreams_) {
    out += sample("forward_tls_handshakes_total", "to=\"" + to + "\",resumed=\"false\"", c.handshakes - c.resumed);
    out += sample("forward_tls_handshakes_total", "to=\"" + to + "\",resumed=\"true\"", c.resumed);
  }
  out += family("forward_tls_failures_total", "counter", "TLS connections failed, by upstream and reason.");
  for (const auto& [to, c] : upstreams_)
    for (const auto& [reason, n] : c.failures)
      out += sample("forward_tls_failures_total", "to=\"" + to + "\",reason=\"" + reason + "\"", n);
  out += family("forward_tls_reused_total", "counter", "Queries sent on a TLS connection already open, by upstream.");
  for (const auto& [to, c] : upstreams_) out += sample("forward_tls_reused_total", "to=\"" + to + "\"", c.reused);
  return out;
}

}  // namespace rk8s::server
