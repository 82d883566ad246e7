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
  // False when `zone` already has a source. `recursive`: the source asks
  // upstreams (a forwarder, the marker's walk), not data of its own.
  bool add(const Name& zone, Source* source, bool recursive = false);
  void set_fallback(Source* source, bool recursive = false) { fallback_ = Zone{Name{}, source, recursive}; }
  // nullptr: no source.
  Source* route(const Name& name) const { return find(name).source; }
  bool recursive(const Name& name) const { return find(name).recursive; }
  // The zone that answers `name`; the root for the fallback.
  const Name& zone(const Name& name) const { return find(name).apex; }

 private:
  struct Zone {
    Name apex;
    Source* source = nullptr;
    bool recursive = false;
  };
  const Zone& find(const Name& name) const;
  std::vector<Zone> zones_;
  Zone fallback_;
};

// Resolves through the router, an upstream's CNAME chain completed
// (completion.h); a name no source takes is REFUSED.
void resolve_routed(const Router& router, const Ask& ask, Resolved done);

}  // namespace rk8s::server
