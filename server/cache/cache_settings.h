// SPDX-License-Identifier: Apache-2.0
// The cache's settings (`cache` in the config file): its size, the TTLs it
// keeps answers for, prefetch and serve-stale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "server/settings/yaml_field.h"

namespace rk8s::server {

// Prefetch (cache.prefetch, CoreDNS's knobs): an answer in use is fetched
// anew before it expires, once, when asked within the last `percentage` of
// its TTL (a second at least, so that a name asked every second is always
// caught) after `min_hits` uses within `period`.
struct PrefetchConfig {
  bool enabled = true;
  unsigned percentage = 10;  // prefetchPercentage
  uint32_t min_hits = 1;     // prefetchMinHits
  uint32_t period = 60;      // prefetchPeriod, seconds
};

// Serve-stale (cache.serveStale, RFC 8767's timers).
enum class StaleMode : uint8_t {
  verify,     // the upstream first; stale when it fails or outlasts clientTimeout
  immediate,  // stale at once, the answer fetched anew behind it (CoreDNS's)
};
struct ServeStaleConfig {
  uint32_t max_stale = 3600;          // maxStale: seconds past expiry an answer may be served; 0: never
  uint32_t stale_ttl = 30;            // staleTTL: what a stale answer's TTLs say
  unsigned client_timeout_ms = 1800;  // clientTimeout: a query's wait before a stale answer; 0: none
  uint32_t failure_recheck = 30;      // failureRecheck: seconds a name's upstreams are not asked again after failing
  StaleMode mode = StaleMode::verify;
};

struct CacheConfig {
  size_t capacity = 10000;     // entries
  uint32_t positive_ttl = 900;  // seconds; OpenShift's defaults
  uint32_t negative_ttl = 30;
  PrefetchConfig prefetch;
  size_t max_bytes = 0;  // maxBytes, records and packets; 0: memory_budget()'s
  ServeStaleConfig stale;
};

CacheConfig parse_cache_settings(const Field& f);

// The keys of cache and of cache.serveStale.
std::vector<SettingKeys> cache_setting_keys();

}  // namespace rk8s::server
