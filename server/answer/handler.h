// SPDX-License-Identifier: Apache-2.0
// Query bytes in, reply bytes out, no sockets: the fuzz target and the unit
// tests drive exactly what the listeners run. The reply comes at once from
// the closed world, later from upstreams.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "server/answer/autopath_walk.h"
#include "server/config/config.h"

namespace rk8s::server {

class LoopGuard;

struct HandlerConfig {
  const Router* router = nullptr;
  AutopathMode mode = AutopathMode::on;
  uint16_t option_code = autopath::kDefaultCode;
  LoopGuard* loops = nullptr;  // told every question's name
};

// What happened, for the query log and the metrics.
struct QueryInfo {
  bool has_question = false;
  Name qname;
  uint16_t qtype = 0;
  bool has_option = false;  // the autopath option was in the query
  bool dropped = false;
  uint8_t rcode = 0;
  std::optional<autopath::ReplyOption> autopath;  // the reply option sent
  size_t walked = 0;
  // A marker name's answer (Resolution::marker_*): 0 candidates for others.
  uint8_t marker_status = 0;
  size_t marker_walked = 0;
  // For the packet cache: seconds this reply may answer the same query
  // again (0: never), and whether its TTLs count down meanwhile (an
  // upstream's answer) or stand (data).
  uint32_t reusable = 0;
  uint32_t refresh_in_ms = UINT32_MAX;  // Reuse::refresh_in_ms
  bool ttls_count_down = false;
};

// The reply, empty when none is sent (not a query, too short to answer, a
// dropped name). UDP replies honour the client's EDNS payload size (512
// without OPT) and set TC when cut.
using ReplyFn = std::function<void(std::vector<uint8_t>& reply, const QueryInfo& info)>;

// Calls `reply` once. The config's sources outlive the call.
void handle_query(const HandlerConfig& config, Bytes query, bool tcp, ReplyFn reply);

}  // namespace rk8s::server
