// SPDX-License-Identifier: Apache-2.0
// One name, one type, against the store: CNAME chains followed within the
// server's data, wildcards (RFC 4592), NXDOMAIN vs NODATA, and the zone's
// SOA for negative answers. Closed world: a name under no zone is NXDOMAIN.
#pragma once

#include "server/data/store.h"
#include "server/model/resolution.h"

namespace rk8s::server {

Resolution store_lookup(const Store& store, const Name& name, uint16_t type);

}  // namespace rk8s::server
