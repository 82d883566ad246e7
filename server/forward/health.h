// SPDX-License-Identifier: Apache-2.0
// One upstream's health, decided by its probes alone, as CoreDNS's forward
// decides it (plugin/forward/health.go, proxy.go): a query that fails only
// asks for a probe, so names an upstream never answers (a dead zone behind
// it) never mark it down. At most one probe is in flight, and none is sent
// within kProbeMs of the last one's end; kMaxFails probes unanswered in a
// row and the upstream is down, probed every kProbeMs until one is
// answered. Any reply is healthy, a probe's or a query's. Shared by every
// thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace rk8s::server {

class Health {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int kMaxFails = 2;
  static constexpr unsigned kProbeMs = 500;

  enum class Change : uint8_t { none, down, up };
  // unsent: this process could not open a socket for it, no fault of the
  // upstream's; another probe follows as after an unanswered one.
  enum class Probe : uint8_t { answered, unanswered, unsent };

  // A query to the upstream failed: true when a probe is to be sent now;
  // then the caller sends it and reports it with probed().
  bool want_probe(Clock::time_point now);
  // A probe's outcome; unless answered, the caller sends another kProbeMs
  // later and reports it the same way.
  Change probed(Probe outcome, Clock::time_point now);
  // A reply to a query.
  Change answered();
  bool down() const { return down_; }

 private:
  std::mutex mutex_;
  bool probing_ = false;
  int fails_ = 0;  // probes unanswered in a row
  Clock::time_point quiet_until_{};
  std::atomic<bool> down_{false};
};

}  // namespace rk8s::server
