// SPDX-License-Identifier: Apache-2.0
// Which source answers a name: the one whose zone is the longest suffix of
// it (servers in the configuration), else the upstream resolvers, else
// none (the server refuses).
#pragma once

#include <vector>

#include "server/model/source.h"

namespace rk8s::server {

class Router {
 public:
  // False when `zone` already has a source.
  bool add(const Name& zone, Source* source);
  void set_fallback(Source* source) { fallback_ = source; }
  // nullptr: no source.
  Source* route(const Name& name) const;

 private:
  struct Zone {
    Name apex;
    Source* source;
  };
  std::vector<Zone> zones_;
  Source* fallback_ = nullptr;
};

// Resolves through the router, an upstream's CNAME chain completed
// (completion.h); a name no source takes is REFUSED.
void resolve_routed(const Router& router, const Ask& ask, Resolved done);

}  // namespace rk8s::server
