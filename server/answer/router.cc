// SPDX-License-Identifier: Apache-2.0
#include "server/answer/router.h"

#include "server/answer/completion.h"

namespace rk8s::server {

bool Router::add(const Name& zone, Source* source, bool recursive) {
  for (const Zone& z : zones_)
    if (dns::name_equal(z.apex, zone)) return false;
  zones_.push_back(Zone{zone, source, recursive});
  return true;
}

const Router::Zone& Router::find(const Name& name) const {
  const Zone* best = nullptr;
  for (const Zone& z : zones_)
    if (dns::name_ends_with(name, z.apex) && (!best || z.apex.len > best->apex.len)) best = &z;
  return best ? *best : fallback_;
}

void resolve_routed(const Router& router, const Ask& ask, Resolved done) {
  if (Source* source = router.route(ask.name)) {
    return source->resolve(ask, [&router, ask, done = std::move(done)](const Resolution* res) {
      Name target;
      if (res && dangling(ask, *res, target)) return complete_chain(router, ask, *res, target, done);
      done(res);
    });
  }
  Resolution refused;
  refused.rcode = dns::kRefused;
  done(&refused);
}

}  // namespace rk8s::server
