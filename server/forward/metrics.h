// SPDX-License-Identifier: Apache-2.0
// What forwarding counts, in CoreDNS's forward families (with our prefix):
// each upstream's request durations by rcode, its failed health checks,
// the times every upstream was down, and the queries refused for overload;
// and ours: each upstream's health checks sent, whether it is down and the
// times it went down, the questions turned away by each limit
// (forward/flights.h), and the expired answers served, by why.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "common/prometheus.h"

namespace rk8s::server {

class ForwardMetrics {
 public:
  // `rcode`: NOERROR..., or "timeout" and "error" for no reply.
  void request(const std::string& to, const std::string& rcode, double seconds);
  void health_check(const std::string& to);
  void health_check_failed(const std::string& to);
  // An upstream of a configuration: its state shown, up, from now on.
  void upstream_known(const std::string& to);
  // Down by its health checks, or no longer (up again, or reloaded away).
  void upstream_down(const std::string& to, bool down);
  void all_down() { broken_++; }
  // A question turned away by `limit` (maxConcurrent: CoreDNS's rejects too).
  void limited(const std::string& limit);
  uint64_t limited_count() const { return limited_total_; }
  // An expired answer served (RFC 8767), by why: failed, timeout,
  // immediate, recheck, refused.
  void stale(const std::string& reason);
  // A question answered from an NXDOMAIN cached above it (RFC 8020).
  void below_nxdomain() { below_nxdomain_++; }
  std::string render() const;
  // The same counts in CoreDNS 1.8's forward families (coredns_forward_*):
  // requests by upstream (those that got no reply too), replies and
  // their round trips by upstream and rcode, failed health checks (0 for
  // every upstream known), the times every upstream was down.
  std::string render_coredns() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, Histogram> durations_;
  std::map<std::string, uint64_t> health_checks_;
  std::map<std::string, uint64_t> health_failures_;
  struct UpstreamState {
    uint64_t down = 0;  // its entries down now: one per list of upstreams it is in
    uint64_t went_down = 0;
  };
  std::map<std::string, UpstreamState> upstreams_;
  std::map<std::string, uint64_t> limited_;
  std::map<std::string, uint64_t> stale_;
  std::atomic<uint64_t> broken_{0};
  std::atomic<uint64_t> rejects_{0};
  std::atomic<uint64_t> limited_total_{0};
  std::atomic<uint64_t> below_nxdomain_{0};
};

// DNS over TLS, by upstream (exchange_tcp.cc): the connections opened, the
// handshakes done (whole or resumed), those that failed by reason
// (verification, timeout, refused, handshake; closed: a connection the
// upstream closed with queries unanswered), and the queries sent on a
// connection already open. One for the process, in ForwardMetrics' text.
class TlsMetrics {
 public:
  void opened(const std::string& to);
  void handshake(const std::string& to, bool resumed);
  void failed(const std::string& to, const std::string& reason);
  void reused(const std::string& to);
  std::string render() const;

 private:
  struct Counts {
    uint64_t opened = 0, handshakes = 0, resumed = 0, reused = 0;
    std::map<std::string, uint64_t> failures;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Counts> upstreams_;
};
TlsMetrics& tls_metrics();

}  // namespace rk8s::server
