// SPDX-License-Identifier: Apache-2.0
#include "server/answer/closed_world.h"

#include "server/data/store_lookup.h"

namespace rk8s::server {

void ClosedWorld::resolve(const Ask& ask, Resolved done) {
  std::optional<Fault> fault = faults_.find(ask.name, ask.type);
  if (!fault) {
    Resolution res = store_lookup(*store_, ask.name, ask.type);
    return done(&res);
  }
  if (fault->drop) return done(nullptr);
  Resolution forced;
  forced.rcode = fault->rcode;
  done(&forced);
}

}  // namespace rk8s::server
