// SPDX-License-Identifier: Apache-2.0
// The server put together, from its start line to its exit: the bounds
// (memory, descriptors), the state forwarding
// shares across reloads, the query path, the worker loops, the HTTP
// endpoints, and on the main loop the signals (SIGHUP reloads, SIGTERM and
// SIGINT drain) and the periodic work.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "server/config/memory.h"
#include "server/forward/forwarder.h"
#include "server/forward/metrics.h"
#include "server/metrics/registry.h"
#include "server/net/http.h"
#include "server/net/workers.h"
#include "server/process/query_path.h"
#include "server/process/say.h"

namespace rk8s::server {

class Server {
 public:
  // Binds every address; throws std::runtime_error, one line, when it cannot.
  // `reread` reads the configuration again, at SIGHUP. `wrap`: what is put
  // around the query path (server/faults/), the reloads' runtimes too.
  Server(const ServerConfig& config, std::function<ServerConfig()> reread, QueryPathWrap wrap = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Serves until SIGTERM or SIGINT and the drain after it.
  int run();

 private:
  struct Signal;
  ForwardShared forward_shared(const ServerConfig& config);
  std::shared_ptr<const Runtime> runtime(const ServerConfig& config);
  void reload();
  void drain();
  void check_drained();
  void say_overload();
  std::string bounds() const;
  std::string listening() const;

  const size_t descriptors_;  // RLIMIT_NOFILE, raised
  std::string fitted_;        // what fitting the limits into it lowered
  const ServerConfig config_;
  std::function<ServerConfig()> reread_;
  const QueryPathWrap wrap_;
  const MemoryBudget memory_;
  // What forwarding keeps across reloads.
  Cache cache_;
  // Before what holds its charges (the flights' askers, the loops'
  // queries), so it outlives them.
  HeldBytes held_;
  Flights flights_;
  ForwardMetrics forward_metrics_;
  QueryPath queries_;
  Workers workers_;
  Loop main_loop_;
  Registry metrics_;
  HttpServer http_;
  std::unique_ptr<Signal> hup_, term_, intr_;
  std::chrono::steady_clock::time_point drain_until_ = std::chrono::steady_clock::time_point::max();
  uint64_t questions_refused_ = 0, connections_refused_ = 0;  // said so far
};

}  // namespace rk8s::server
