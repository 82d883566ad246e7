// SPDX-License-Identifier: Apache-2.0
// Query bytes in, reply bytes out, no sockets: the fuzz target and the unit
// tests drive exactly what the listeners run. The reply comes at once from
// the closed world, later from upstreams.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "server/answer/autopath_settings.h"
#include "server/answer/autopath_walk.h"
#include "server/model/query_info.h"

namespace rk8s::server {

class LoopGuard;

struct HandlerConfig {
  const Router* router = nullptr;
  AutopathMode mode = AutopathMode::on;
  uint16_t option_code = autopath::kDefaultCode;
  LoopGuard* loops = nullptr;  // told every question's name
  size_t max_udp_size = 1232;  // limits.maxUDPSize
  unsigned max_upstream = 16;  // limits.maxUpstreamPerQuery
  HeldBytes* held = nullptr;   // what autopath walks hold, charged to their clients
  WalkCuts cuts;               // autopath's
};

// Who asked: fair shares of upstream work are by address.
struct QueryFrom {
  IpAddr client;
  bool tcp = false;
  uint32_t repeats = 0;  // QueryScope::repeats
};

// The reply, empty when none is sent (not a query, too short to answer, a
// dropped name). UDP replies honour the client's EDNS payload size (512
// without OPT), up to max_udp_size, and set TC when cut.
using ReplyFn = std::function<void(std::vector<uint8_t>& reply, const QueryInfo& info)>;

// Calls `reply` once. The config's sources outlive the call.
void handle_query(const HandlerConfig& config, Bytes query, const QueryFrom& from, ReplyFn reply);

// What the query path calls for a query: handle_query with a runtime's
// HandlerConfig, or what is put around it (runtime.h's RuntimeWrap).
using Handle = std::function<void(Bytes query, const QueryFrom& from, ReplyFn reply)>;

}  // namespace rk8s::server
