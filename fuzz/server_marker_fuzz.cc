// SPDX-License-Identifier: Apache-2.0
// Marker names (answer/marker.h): any name in text, long, malformed, nested
// or with a namespace of any form, resolved through the router. Never a
// crash; an answer only for a name the marker reads, owned by that name
// and aliased to one of its candidates; anything else under the marker
// zone NXDOMAIN with the zone's SOA.
#include <cstddef>
#include <cstdint>

#include "fuzz/server_world.h"

using namespace rk8s::server;
using rk8s::server::fuzz::World;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  if (size < 1) return 0;
  uint16_t type = data[0] % 3 == 0 ? rk8s::dns::kTypeA : data[0] % 3 == 1 ? rk8s::dns::kTypeAAAA
                                                                          : uint16_t(data[0]);
  Name name;
  if (!rk8s::dns::name_from_text(rk8s::Str{reinterpret_cast<const char*>(data + 1), size - 1}, name))
    return 0;
  Name base, ns;
  bool marker = parse_marker_name(world.marker_zone_name, name, base, ns);
  if (marker) {
    // The name is exactly base.search.ns.zone.
    Name search, rebuilt, tail;
    if (!name_prepend("search", ns, search) || !rk8s::dns::name_concat(search, world.marker_zone_name, tail) ||
        !rk8s::dns::name_concat(base, tail, rebuilt) || !rk8s::dns::name_equal(rebuilt, name))
      __builtin_trap();
  }
  bool under = rk8s::dns::name_ends_with(name, world.marker_zone_name);
  bool called = false;
  resolve_routed(world.router, Ask{name, type}, [&](const Resolution* r) {
    called = true;
    if (!r || !under) return;
    if (!r->records.empty()) {
      const RrRef& alias = r->records[0];
      if (!marker || !rk8s::dns::name_equal(alias.owner, name) || alias.rr->type != rk8s::dns::kTypeCNAME)
        __builtin_trap();
      static rk8s::autopath::QueryOption list;
      marker_search(world.marker, ns, list);
      Name target = rr_target(*alias.rr), candidate;
      bool listed = false;
      for (size_t i = 0; i < list.count && !listed; i++)
        listed = rk8s::dns::name_concat(base, list.suffix[i], candidate) && rk8s::dns::name_equal(candidate, target);
      if (!listed) __builtin_trap();
    } else if (r->rcode == rk8s::dns::kNxDomain) {
      if (!r->soa() || !rk8s::dns::name_equal(r->soa()->owner, world.marker_zone_name)) __builtin_trap();
    }
  });
  if (!called) __builtin_trap();  // the closed world answers at once
  return 0;
}
