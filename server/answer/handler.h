// Query bytes in, reply bytes out: no sockets, so the fuzz target and the
// unit tests drive exactly what the listeners run.
#pragma once

#include <optional>

#include "server/answer/autopath_walk.h"

namespace rk8s::server {

enum class AutopathMode {
  on,       // protocol v1
  off,      // ignore the option, as RFC 6891 says for unknown options
  formerr,  // FORMERR on any EDNS option (a broken old server)
  echo,     // echo every option verbatim (a middlebox): Q still set
};

struct HandlerConfig {
  const Store* store = nullptr;
  const Faults* faults = nullptr;
  AutopathMode mode = AutopathMode::on;
  uint16_t option_code = autopath::kDefaultCode;
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
};

// The reply's length in `out`, or 0 when no reply is sent (not a query,
// too short to answer, or a dropped name). UDP replies honour the
// client's EDNS payload size (512 without OPT) and set TC when cut.
size_t handle_query(const HandlerConfig& config, Bytes query, bool tcp, uint8_t* out,
                    size_t cap, QueryInfo& info);

}  // namespace rk8s::server
