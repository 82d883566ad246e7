// The server side of the autopath option (docs/autopath-protocol.md):
// walk the client's candidates in order and pick what the reply says.
#pragma once

#include <optional>
#include <vector>

#include "dns/autopath.h"
#include "server/answer/faults.h"

namespace rk8s::server {

struct AutopathWalk {
  bool drop = false;              // a dropped candidate: the query is never answered
  autopath::ReplyOption option;   // status, index, BOTH when honoured
  Resolution resolution;          // the matched candidate's, or QNAME's own when EXHAUSTED
  std::optional<Rr> alias;        // MATCHED at i > 0: QNAME CNAME candidate_i
  std::vector<RrRef> additional;  // BOTH: the matched name's AAAA records
  size_t walked = 0;              // candidates looked at
};

// REJECTED (and nothing else filled in) when suffix[0] does not end QNAME
// or leaves an empty base; the caller then answers QNAME plainly.
AutopathWalk walk_candidates(const Store& store, const Faults& faults, const Name& qname,
                             uint16_t qtype, const autopath::QueryOption& query);

}  // namespace rk8s::server
