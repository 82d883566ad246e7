// SPDX-License-Identifier: Apache-2.0
// The upstreams of one zone (a server's forwardPlugin, or
// upstreamResolvers): the order to try them in, by policy, and their
// health (health.h), shared by every thread. A query that fails asks for a
// probe, ". IN NS" over the transport the upstream is used with (ahead of
// every query waiting on the connections, exchange_tcp.h), on the
// loop of the query; when all are down, one is tried anyway.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "server/forward/forward_settings.h"
#include "server/forward/health.h"
#include "server/model/warn.h"
#include "server/net/loop.h"

namespace rk8s::server {

class ForwardMetrics;

class Upstreams : public std::enable_shared_from_this<Upstreams> {
 public:
  static constexpr unsigned kProbeTimeoutMs = 1000;  // CoreDNS's hcReadTimeout

  // `warn` gets a line when an upstream goes down and when it is back.
  Upstreams(const ForwardConfig& config, ForwardMetrics& metrics, Warn warn);
  ~Upstreams();

  const Upstream& at(size_t i) const { return states_[i]->where; }
  size_t size() const { return states_.size(); }
  bool tcp_only() const { return tcp_only_; }
  // The upstreams to try, in order: the healthy ones by policy, or one down
  // one at random when none is healthy.
  std::vector<size_t> order();
  // Any reply from upstream i.
  void succeeded(size_t i);
  // A timeout or a network error: upstream i may be probed, on `loop`.
  void failed(size_t i, Loop& loop);
  bool any_healthy() const;

 private:
  struct State {
    Upstream where;
    Health health;
  };
  void probe(size_t i, Loop& loop);
  void probed(size_t i, Health::Probe outcome, Loop& loop);
  void changed(size_t i, Health::Change change);

  std::vector<std::unique_ptr<State>> states_;
  Policy policy_;
  bool tcp_only_;
  std::atomic<unsigned> next_{0};  // round robin
  ForwardMetrics& metrics_;
  Warn warn_;
};

}  // namespace rk8s::server
