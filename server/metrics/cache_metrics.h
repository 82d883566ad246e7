// The cache's counters in CoreDNS's cache families, with our prefix.
#pragma once

#include <string>

#include "server/cache/cache.h"

namespace rk8s::server {

std::string render_cache_metrics(const CacheCounters& c);

}  // namespace rk8s::server
