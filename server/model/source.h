// SPDX-License-Identifier: Apache-2.0
// Where the answer for one name and type comes from: a closed world of
// data (closed_world.h), or upstreams through the cache (forward/).
#pragma once

#include <functional>
#include <memory>

#include "server/model/resolution.h"
#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

// What one client's query may spend, shared by every question asked for
// it (its walk's candidates, a CNAME chain's links): upstream work is
// shared out by the client's address, and one query sends at most so many
// questions upstream (limits.maxUpstreamPerQuery).
struct QueryScope {
  IpAddr client;
  unsigned upstream_left = 0;
  uint32_t repeats = 0;  // uses of the query the packet cache answered since it last came through
};

// One question of a client's query, or one candidate of its autopath walk.
struct Ask {
  Name name;
  uint16_t type = 0;
  bool dnssec_ok = false;          // DO, from the client's OPT record
  bool checking_disabled = false;  // CD
  std::shared_ptr<QueryScope> scope;  // null: the server's own question (prefetch, a probe)
};

// Called once, with a resolution valid for the call only; null when the
// name is never to be answered (a --drop fault).
using Resolved = std::function<void(const Resolution*)>;

class Source {
 public:
  virtual ~Source() = default;
  // May call `done` before it returns.
  virtual void resolve(const Ask& ask, Resolved done) = 0;
};

}  // namespace rk8s::server
