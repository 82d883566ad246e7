// SPDX-License-Identifier: Apache-2.0
// What the answer to one query did: the handler (answer/handler.h) fills
// it in, the query log, the metrics and the packet cache read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "libresolv-k8s/dns/autopath.h"
#include "server/model/resolution.h"
#include "server/util/names.h"

namespace rk8s::server {

struct QueryInfo {
  bool has_question = false;
  Name qname;
  uint16_t qtype = 0;
  bool has_option = false;  // the autopath option was in the query
  bool dropped = false;
  uint8_t rcode = 0;
  // CoreDNS's labels (answer/coredns_metrics.h): the zone of the server
  // that answered ("." past every server's), who wrote the reply, and
  // whether it was a denial (NXDOMAIN, or an empty answer section).
  std::string zone;
  uint16_t zone_index = 0;  // CorednsQueries::zone_index's of `zone`, kept by the packet cache
  enum class By : uint8_t { server, data, cache, upstream } by = By::server;
  bool denial = false;
  std::optional<autopath::ReplyOption> autopath;  // the reply option sent
  size_t walked = 0;
  // Candidates walked past unasked by a cut, in the walk of the autopath
  // option or of a marker name.
  CandidatesCut cut;
  // A marker name's answer (Resolution::marker_*): 0 candidates for others.
  uint8_t marker_status = 0;
  size_t marker_walked = 0;
  // For the packet cache: seconds this reply may answer the same query
  // again (0: never), and whether its TTLs count down meanwhile (an
  // upstream's answer) or stand (data).
  uint32_t reusable = 0;
  uint32_t refresh_in_ms = UINT32_MAX;  // Reuse::refresh_in_ms
  bool ttls_count_down = false;
  // The packet cache's, for a query it lets through for a prefetch: the
  // uses of its reply it answered meanwhile (QueryScope::repeats).
  uint32_t repeats = 0;
};

}  // namespace rk8s::server
