// SPDX-License-Identifier: Apache-2.0
// One name, one type, against the store: CNAME chains followed within the
// server's data, wildcards (RFC 4592), NXDOMAIN vs NODATA, and the zone's
// SOA for negative answers. Closed world: a name under no zone is NXDOMAIN.
// A chain leaving a cluster zone (Zone::schema) for another zone is chased
// as CoreDNS's kubernetes plugin chases an ExternalName's target through its
// upstream (plugin/backend_lookup.go): the target's own lookup, of which
// only the answer records are kept; the rcode stays NOERROR, no SOA.
#pragma once

#include "server/data/store.h"
#include "server/model/resolution.h"

namespace rk8s::server {

Resolution store_lookup(const Store& store, const Name& name, uint16_t type);

}  // namespace rk8s::server
