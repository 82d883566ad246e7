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

#include "server/cache/cache_settings.h"
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
  bool stale = false;  // expired, within the stale window (RFC 8767)
  bool refresh = false;  // prefetch: the caller fetches the entry anew
  // Prefetch: milliseconds, rounded up, until the refresh is due (0: due).
  uint32_t refresh_in_ms = UINT32_MAX;
  // Seconds since its upstreams last failed (failed()); UINT32_MAX: not
  // since it was stored.
  uint32_t since_failure = UINT32_MAX;
};

// How find() looks: expired entries too (within the stale window), the
// prefetch rule, and how many uses the lookup stands for (a reply the
// packet cache repeated meanwhile).
struct CacheFind {
  bool stale_ok = false;
  const PrefetchConfig* prefetch = nullptr;
  uint32_t uses = 1;
  bool count_miss = true;  // false: a look on the question's behalf, not its own
};

// Every find() counts one of hits (fresh) and misses (anything else, but
// for CacheFind::count_miss).
struct CacheCounters {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t evictions = 0;  // least recently used entries dropped for room
  uint64_t entries = 0;
  uint64_t denials = 0;    // entries that are NXDOMAIN or hold no answer records
  uint64_t bytes = 0;      // what the entries are charged
  uint64_t too_big = 0;    // answers not kept: larger than a shard's budget
  uint64_t prefetches = 0;         // hits that asked for a refresh
  uint64_t served_refreshing = 0;  // hits of an entry while its refresh was due
};

// Prefetch's refresh point: milliseconds after an entry of `ttl` was
// stored, `percentage` of the TTL before its expiry, a second at least.
inline uint32_t refresh_point_ms(uint32_t ttl, unsigned percentage) {
  uint64_t life = uint64_t(ttl) * 1000, window = std::max<uint64_t>(uint64_t(ttl) * percentage * 10, 1000);
  return uint32_t(std::min<uint64_t>(life > window ? life - window : 0, UINT32_MAX - 1));
}

class Cache {
 public:
  using Clock = std::chrono::steady_clock;

  // At most `capacity` entries and `max_bytes`, fresh and stale together
  // (0 caches nothing); an entry is kept `max_stale` seconds past its TTL.
  Cache(size_t capacity, size_t max_bytes, uint32_t max_stale);
  ~Cache();

  // The entry while fresh; with `stale_ok`, also until max_stale past its
  // expiry. A hit makes it the most recently used. With a prefetch rule,
  // the first fresh hit past the refresh point, once the entry has had
  // min_hits uses within the rule's period, says `refresh`.
  std::optional<CacheHit> find(const CacheKey& key, Clock::time_point now, const CacheFind& how = {});
  // The upstreams failed for `key` (CacheHit::since_failure).
  void failed(const CacheKey& key, Clock::time_point now);
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
  std::chrono::seconds max_stale_;
};

}  // namespace rk8s::server
