// SPDX-License-Identifier: Apache-2.0
// How long an upstream's answer is kept (CoreDNS's cache plugin, RFC 2308);
// Resolution::ttl_of counts its TTLs down while it is.
#pragma once

#include <cstdint>

#include "server/cache/cache_settings.h"
#include "server/cache/reply.h"

namespace rk8s::server {

// Seconds `a` may be cached; 0: not at all. NOERROR with answers: the
// lowest TTL of the answer and authority sections, capped by
// caps.positive_ttl. NXDOMAIN and NODATA: the authority's SOA's min(TTL,
// MINIMUM), no longer than a CNAME leading there, capped by
// caps.negative_ttl; without an SOA, 0. SERVFAIL: 5 s at most. Truncated
// replies and other rcodes: 0.
uint32_t cache_ttl(const CachedAnswer& a, const CacheConfig& caps);

}  // namespace rk8s::server
