// SPDX-License-Identifier: Apache-2.0
// The upstreams of one zone (a server's forwardPlugin, or
// upstreamResolvers): the order to try them in, by policy, and their
// health, shared by every thread. After kMaxFails failures in a row an
// upstream is down and probed with ". IN NS" every 0.5 s until it answers
// anything (CoreDNS's max_fails and health_check); when all are down, one
// is tried anyway.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "server/config/config.h"
#include "server/model/warn.h"
#include "server/net/loop.h"

namespace rk8s::server {

class ForwardMetrics;

class Upstreams : public std::enable_shared_from_this<Upstreams> {
 public:
  static constexpr int kMaxFails = 2;
  static constexpr unsigned kProbeMs = 500;

  // `warn` gets a line when an upstream goes down and when it is back.
  Upstreams(const ForwardConfig& config, ForwardMetrics& metrics, Warn warn);

  const Upstream& at(size_t i) const { return states_[i]->where; }
  size_t size() const { return states_.size(); }
  bool tcp_only() const { return tcp_only_; }
  // The upstreams to try, in order: the healthy ones by policy, or one down
  // one at random when none is healthy.
  std::vector<size_t> order();
  void succeeded(size_t i);
  // A timeout or a network error; the loop probes it once it is down.
  void failed(size_t i, Loop& loop);
  bool any_healthy() const;

 private:
  struct State {
    Upstream where;
    std::atomic<int> fails{0};
    std::atomic<bool> down{false};
    std::atomic<bool> probing{false};
  };
  void probe(size_t i, Loop& loop);

  std::vector<std::unique_ptr<State>> states_;
  Policy policy_;
  bool tcp_only_;
  std::atomic<unsigned> next_{0};  // round robin
  ForwardMetrics& metrics_;
  Warn warn_;
};

}  // namespace rk8s::server
