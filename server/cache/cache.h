// SPDX-License-Identifier: Apache-2.0
// Upstreams' answers shared by every thread: shards, each an LRU list and
// a map under its own mutex, that split the capacity (entries) and the
// budget (bytes) between them. Each entry is charged the memory it holds,
// its answer's records and names, its key, and the map's and list's nodes.
// Time is the caller's steady_clock reading, so tests control it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/cache/reply.h"

namespace rk8s::server {

// CoreDNS's key: EDNS options are not in it.
struct CacheKey {
  std::string name;  // name_key(): one key whatever the query's case
  uint16_t type = 0;
  uint16_t klass = dns::kClassIN;
  bool dnssec_ok = false;          // DO
  bool checking_disabled = false;  // CD

  bool operator==(const CacheKey&) const = default;
};

struct CacheHit {
  std::shared_ptr<const CachedAnswer> answer;
  uint32_t ttl = 0;    // as inserted
  uint32_t age = 0;    // whole seconds since it was inserted
  bool stale = false;  // expired, served under RFC 8767
  bool refresh = false;  // prefetch: the caller fetches the entry anew
  // Prefetch: milliseconds, rounded up, until the refresh is due (0: due).
  uint32_t refresh_in_ms = UINT32_MAX;
};

// Every find() counts one of hits, stale_served and misses.
struct CacheCounters {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t stale_served = 0;
  uint64_t evictions = 0;  // least recently used entries dropped for room
  uint64_t entries = 0;
  uint64_t bytes = 0;      // what the entries are charged
  uint64_t too_big = 0;    // answers not kept: larger than a shard's budget
  uint64_t prefetches = 0;         // hits that asked for a refresh
  uint64_t served_refreshing = 0;  // hits of an entry while its refresh was due
};

// Prefetch, as unbound's: an entry asked for in the last tenth of its TTL
// is refreshed, once: from this many milliseconds after it was stored.
inline uint32_t refresh_point_ms(uint32_t ttl) {
  return uint32_t(std::min<uint64_t>(uint64_t(ttl) * 900, UINT32_MAX - 1));
}

class Cache {
 public:
  using Clock = std::chrono::steady_clock;
  // How long past its TTL an entry may still be served stale.
  static constexpr std::chrono::seconds kStaleWindow{3600};

  // At most `capacity` entries and `max_bytes`, fresh and stale together;
  // 0 caches nothing.
  Cache(size_t capacity, size_t max_bytes);
  ~Cache();

  // The entry while fresh; with `stale_ok`, also until kStaleWindow past
  // its expiry. A hit makes it the most recently used. With `prefetch`, the
  // first fresh hit in the last tenth of the entry's TTL says `refresh`.
  std::optional<CacheHit> find(const CacheKey& key, Clock::time_point now, bool stale_ok,
                               bool prefetch = false);
  // Replaces any entry of `key`; a `ttl` of 0 stores and replaces nothing.
  // An answer over a shard's budget is not kept (and the entry it would
  // replace is dropped).
  void insert(const CacheKey& key, std::shared_ptr<const CachedAnswer> answer, uint32_t ttl,
              Clock::time_point now);
  CacheCounters counters() const;

 private:
  struct Shard;
  Shard& shard_of(const CacheKey& key);

  size_t shard_count_;
  std::unique_ptr<Shard[]> shards_;
};

}  // namespace rk8s::server
