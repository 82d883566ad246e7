// SPDX-License-Identifier: Apache-2.0
// The cache's counters in CoreDNS's cache families, with our prefix.
#pragma once

#include <string>

#include "server/cache/cache.h"

namespace rk8s::server {

// `packet_hits`: queries answered with a whole reply kept (PacketCache).
std::string render_cache_metrics(const CacheCounters& c, uint64_t packet_hits);

}  // namespace rk8s::server
