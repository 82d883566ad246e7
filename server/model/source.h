// SPDX-License-Identifier: Apache-2.0
// Where the answer for one name and type comes from: a closed world of
// data (closed_world.h), or upstreams through the cache (forward/).
#pragma once

#include <functional>

#include "server/model/resolution.h"

namespace rk8s::server {

// One question of a client's query, or one candidate of its autopath walk.
struct Ask {
  Name name;
  uint16_t type = 0;
  bool dnssec_ok = false;          // DO, from the client's OPT record
  bool checking_disabled = false;  // CD
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
