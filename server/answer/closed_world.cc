// SPDX-License-Identifier: Apache-2.0
#include "server/answer/closed_world.h"

#include "server/data/store_lookup.h"

namespace rk8s::server {

void ClosedWorld::resolve(const Ask& ask, Resolved done) {
  Resolution res = store_lookup(*store_, ask.name, ask.type);
  done(&res);
}

}  // namespace rk8s::server
