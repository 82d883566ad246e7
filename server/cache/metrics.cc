// SPDX-License-Identifier: Apache-2.0
#include "server/cache/metrics.h"

#include "common/prometheus.h"

namespace rk8s::server {

std::string render_cache_metrics(const CacheCounters& c, uint64_t packet_hits) {
  struct Counter {
    const char* name;
    const char* type;
    const char* help;
    uint64_t value;
  };
  const Counter families[] = {
      {"cache_entries", "gauge", "Answers in the cache, fresh and stale.", c.entries},
      {"cache_bytes", "gauge", "What the cache's answers are charged, in bytes.", c.bytes},
      {"cache_hits_total", "counter", "Questions answered from the cache.", c.hits},
      {"cache_misses_total", "counter", "Questions the cache could not answer.", c.misses},
      {"cache_evictions_total", "counter", "Answers dropped for room.", c.evictions},
      {"cache_too_big_total", "counter", "Answers not kept: over a shard's share of the budget.", c.too_big},
      {"cache_prefetch_total", "counter", "Answers fetched anew before they expire, asked for near the end of their TTL.",
       c.prefetches},
      {"cache_served_refreshing_total", "counter", "Answers served while their prefetch was under way.",
       c.served_refreshing},
      {"cache_packet_hits_total", "counter", "Queries answered with a whole reply kept from before.",
       packet_hits},
  };
  std::string out;
  for (const Counter& f : families) out += family(f.name, f.type, f.help) + sample(f.name, "", f.value);
  return out;
}

}  // namespace rk8s::server
