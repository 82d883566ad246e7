// SPDX-License-Identifier: Apache-2.0
// A query's way from a listener to its reply and back: a client over its
// rate (limits.clientQPS) dropped, then the packet cache, else the handler
// with the runtime of the moment; every answer counted, logged, and kept
// for the packet cache.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/cache/packet_cache.h"
#include "server/process/client_rate.h"
#include "server/process/runtime.h"
#include "server/answer/metrics.h"
#include "server/answer/coredns_metrics.h"
#include "server/process/query_log.h"
#include "server/net/serve.h"

namespace rk8s::server {

// Told of every answer, after the query path's own metrics and log.
using OnAnswered = std::function<void(const Client& client, const QueryInfo& info, const std::vector<uint8_t>& reply)>;

// What is put around the query path as it is built (server/faults/: the
// test faults); the defaults leave it as it is, with nothing in its way.
struct QueryPathWrap {
  RuntimeWrap runtime;  // each runtime's, the reloads' too
  OnAnswered answered;
  bool packet_cache = true;  // false: every query the long way
};

class QueryPath {
 public:
  // `packet_bytes`: the packet cache's budget; `workers`: the listeners'
  // loops, each Client's `worker` one of 0 to workers - 1.
  QueryPath(const ServerConfig& config, size_t packet_bytes, size_t workers, std::shared_ptr<const Runtime> runtime,
            const QueryPathWrap& wrap = {});

  // What the listeners call (net/serve.h).
  ServeAtOnce at_once();
  Serve serve();

  // SIGHUP: queries from now on start with `runtime`; those under way
  // finish with the one they started with.
  void reload(std::shared_ptr<const Runtime> runtime);
  std::shared_ptr<const Runtime> runtime() const;
  // Queries received and not yet answered.
  size_t answering() const { return answering_; }
  // The Prometheus text of the queries and the packet cache's hits.
  std::string render_metrics() const { return metrics_.render(); }
  // CoreDNS's query and cache families (answer/coredns_metrics.h), the
  // cache holding `entries`, `denials` of them negative.
  std::string render_coredns_metrics(uint64_t entries, uint64_t denials) const {
    return coredns_.render(entries, denials);
  }
  uint64_t packet_hits() const { return packets_.hits(); }
  size_t packet_bytes() const { return packets_.bytes(); }
  uint64_t rate_limited() const { return rate_.dropped(); }

 private:
  using AnsweredIn = std::function<void(const Client& client, const QueryInfo& info,
                                        const std::vector<uint8_t>& reply, double seconds)>;
  void count_and_log(const Client& client, const QueryInfo& info, const std::vector<uint8_t>& reply,
                     double seconds);

  mutable std::mutex mutex_;  // runtime_
  std::shared_ptr<const Runtime> runtime_;
  std::atomic<uint64_t> generation_{0};  // runtime_'s, read without the lock
  PacketCache packets_;
  ClientRate rate_;
  QueryMetrics metrics_;
  CorednsQueries coredns_;
  QueryLog query_log_;
  AnsweredIn answered_;  // count_and_log, and the wrap's after it
  std::atomic<size_t> answering_{0};
};

}  // namespace rk8s::server
