// SPDX-License-Identifier: Apache-2.0
// The server side of the autopath option (docs/autopath-protocol.md): walk
// the client's candidates in order, each through the router (the closed
// world, or upstreams through the cache), and pick what the reply says.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "libresolv-k8s/dns/autopath.h"
#include "server/answer/autopath_settings.h"
#include "server/answer/router.h"
#include "server/forward/held_bytes.h"

namespace rk8s::server {

struct AutopathWalk {
  bool drop = false;              // a dropped candidate (REJECTED): no reply at all
  autopath::ReplyOption option;   // status, index, the first NODATA; BOTH and PAST_NODATA when honoured
  Name candidate;                 // MATCHED: the candidate's name
  Resolution resolution;          // the matched candidate's, or QNAME's own when EXHAUSTED
  std::optional<Rr> alias;        // MATCHED at i > 0: QNAME CNAME candidate_i
  Resolution both;                // BOTH: the matched name's AAAA records
  size_t walked = 0;              // candidates looked at
  Reuse reuse;                    // that of every answer it used
  uint32_t skipped_ttl = UINT32_MAX;  // the least negative TTL of the candidates walked past
  CandidatesCut cut;              // candidates walked past unasked (WalkCuts)
};

// Calls `done` once, at once when every candidate resolves at once. REJECTED
// (and nothing else filled in) when suffix[0] does not end QNAME or leaves
// an empty base, or the walk cannot finish (a dropped candidate, or one the
// query's upstream budget could not ask, Resolution::over_budget); the
// caller then answers QNAME plainly and the client walks on itself.
// With `held`, the walk's state is charged to the asking client while it
// lasts, and REJECTED when the budget or the client's share has no room.
// A candidate the schema cut makes certain is NXDOMAIN is walked past
// unasked; the negative TTL it would have had is left out of the CNAME's
// and skipped_ttl. QNAME's own, cut, is asked (after its probe, with both
// cuts) when the walk comes to an end EXHAUSTED, so that its reply is what
// it would have been uncut. With the RFC 8020 cut, a candidate's probe
// (the name one label below its search domain, type A, in the same zone)
// is asked before it, and an NXDOMAIN there is the candidate's answer in
// both families, SOA and all; through the cache one probe answers every
// candidate beneath it.
void walk_candidates(const Router& router, const Ask& qname, const autopath::QueryOption& query,
                     std::function<void(AutopathWalk&)> done, HeldBytes* held = nullptr,
                     const WalkCuts& cuts = {});

}  // namespace rk8s::server
