// SPDX-License-Identifier: Apache-2.0
// What a configuration becomes: a closed world per data server, loaded
// from its files; a forwarder per forwarding server and for the upstream
// resolvers; the router between them. SIGHUP builds a new one and swaps
// it in; a query keeps the one it started with.
#pragma once

#include <memory>
#include <vector>

#include "server/answer/closed_world.h"
#include "server/answer/handler.h"
#include "server/config/config.h"
#include "server/data/cluster.h"
#include "server/forward/forwarder.h"
#include "server/forward/loop_guard.h"

namespace rk8s::server {

// What is put around a runtime's parts as it is built (server/faults/:
// the test faults); an empty member leaves its part as it is, with
// nothing in its way.
struct RuntimeWrap {
  // Around each closed world's source.
  std::function<std::unique_ptr<Source>(std::unique_ptr<Source>)> data;
  // In place of handle_query with the runtime's HandlerConfig.
  std::function<Handle(const HandlerConfig&)> handle;
};

class Runtime {
 public:
  // Loads every file; throws LoadError or std::runtime_error, one line.
  Runtime(const ServerConfig& config, const ForwardShared& shared, const Warn& warn,
          const RuntimeWrap& wrap = {});
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const ServerConfig& config() const { return config_; }
  // What a query is handed to.
  const Handle& handle() const { return handle_; }
  // Every forwarding zone has an upstream that is not down, and no loop.
  bool ready() const;
  // Sends the loop probes (loop_guard.h) to our listener at `listen`.
  void probe_loops(const Endpoint& listen) const { loops_.send(listen); }
  // What it serves, in words: "24 names from files, 2 forwarders, the marker".
  std::string serving() const;
  // Distinct for every Runtime of the process: the packet cache keeps a
  // reply for the one that made it.
  uint64_t generation() const { return generation_; }

 private:
  ServerConfig config_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<const Forwarder*> forwarders_;
  std::vector<const ClosedWorld*> worlds_;
  Router router_;
  LoopGuard loops_;
  HandlerConfig handler_;
  Handle handle_;
  uint64_t generation_;
};

}  // namespace rk8s::server
