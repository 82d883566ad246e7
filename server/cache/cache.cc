// SPDX-License-Identifier: Apache-2.0
#include "server/cache/cache.h"

#include <algorithm>
#include <atomic>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rk8s::server {

namespace {

using std::chrono::seconds;

// Least recently used entries are evicted shard by shard: that is close to
// the whole cache's order only while each shard holds many entries.
constexpr size_t kMaxShards = 32;
constexpr size_t kMinShardCapacity = 64;

// CoreDNS's cache type "denial": NXDOMAIN, or no record in the answer
// section (NODATA); else "success".
bool denial(const CachedAnswer& a) {
  if (a.rcode == dns::kNxDomain) return true;
  for (const CachedRecord& r : a.records)
    if (r.section == dns::kAnswer) return false;
  return true;
}

struct KeyHash {
  size_t operator()(const CacheKey& k) const {
    uint64_t rest = uint64_t(k.type) << 32 | uint64_t(k.klass) << 16 | k.dnssec_ok << 1 |
                    k.checking_disabled;
    return std::hash<std::string>{}(k.name) ^ size_t(rest * 0x9e3779b97f4a7c15);
  }
};

void bump(std::atomic<uint64_t>& counter) { counter.fetch_add(1, std::memory_order_relaxed); }

uint64_t read(const std::atomic<uint64_t>& counter) {
  return counter.load(std::memory_order_relaxed);
}

}  // namespace

// alignas: shards used by different threads share no cache line.
struct alignas(64) Cache::Shard {
  struct Entry {
    std::shared_ptr<const CachedAnswer> answer;
    Clock::time_point stored;
    uint32_t ttl = 0;
    bool refresh_asked = false;  // a find() said `refresh` since it was stored
    uint32_t uses = 0;           // prefetch: within the rule's period, from...
    Clock::time_point uses_since;
    Clock::time_point failed = Clock::time_point::min();  // failed()'s
    size_t cost = 0;             // bytes charged
    std::list<const CacheKey*>::iterator used;  // its place in `lru`
  };

  using Map = std::unordered_map<CacheKey, Entry, KeyHash>;

  std::mutex mutex;
  size_t capacity = 0;
  size_t budget = 0;  // bytes
  size_t used_bytes = 0;
  Map entries;
  std::list<const CacheKey*> lru;  // the most recently used first
  // Written under `mutex`, read without it by counters().
  size_t denials_held = 0;
  std::atomic<uint64_t> hits{0}, misses{0}, evictions{0}, size{0}, bytes{0}, too_big{0}, prefetches{0},
      served_refreshing{0}, denials{0};

  // Returns the entry's answer, so that it is freed once the mutex is released.
  std::shared_ptr<const CachedAnswer> remove(Map::iterator it) {
    std::shared_ptr<const CachedAnswer> answer = std::move(it->second.answer);
    used_bytes -= it->second.cost;
    denials_held -= denial(*answer);
    lru.erase(it->second.used);
    entries.erase(it);
    publish();
    return answer;
  }

  // An entry's charge: its answer (shared with the any-type entry of an
  // NXDOMAIN, and charged to each), its key's name, the map's node (and
  // its bucket) and the LRU list's.
  static size_t cost(const CacheKey& key, const CachedAnswer& answer) {
    constexpr size_t kNodes = heap_bytes(sizeof(Map::value_type) + 2 * sizeof(void*)) + sizeof(void*) +
                              heap_bytes(sizeof(const CacheKey*) + 2 * sizeof(void*));
    return answer.bytes() + heap_bytes(key.name.size() > 15 ? key.name.size() + 1 : 0) + kNodes;
  }

  void publish() {
    size.store(entries.size(), std::memory_order_relaxed);
    bytes.store(used_bytes, std::memory_order_relaxed);
    denials.store(denials_held, std::memory_order_relaxed);
  }
};

Cache::Cache(size_t capacity, size_t max_bytes, uint32_t max_stale)
    : shard_count_(std::clamp<size_t>(capacity / kMinShardCapacity, 1, kMaxShards)),
      shards_(new Shard[shard_count_]),
      max_stale_(max_stale) {
  for (size_t i = 0; i < shard_count_; i++) {
    shards_[i].capacity = capacity / shard_count_ + (i < capacity % shard_count_);
    shards_[i].budget = max_bytes / shard_count_;
  }
}

Cache::~Cache() = default;

Cache::Shard& Cache::shard_of(const CacheKey& key) {
  return shards_[KeyHash{}(key) % shard_count_];
}

std::optional<CacheHit> Cache::find(const CacheKey& key, Clock::time_point now, const CacheFind& how) {
  Shard& shard = shard_of(key);
  std::shared_ptr<const CachedAnswer> dropped;
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(key);
  if (it == shard.entries.end()) {
    if (how.count_miss) bump(shard.misses);
    return std::nullopt;
  }
  Shard::Entry& e = it->second;
  seconds age = std::chrono::floor<seconds>(std::max(now - e.stored, Clock::duration::zero()));
  bool stale = age >= seconds(e.ttl);
  bool gone = age >= seconds(e.ttl) + max_stale_;
  if (gone) dropped = shard.remove(it);
  if (!stale) bump(shard.hits);  // gone is stale too
  else if (how.count_miss) bump(shard.misses);
  if (gone || (stale && !how.stale_ok)) return std::nullopt;
  shard.lru.splice(shard.lru.begin(), shard.lru, e.used);
  CacheHit hit{e.answer, e.ttl, uint32_t(std::min<seconds::rep>(age.count(), UINT32_MAX)), stale};
  if (e.failed != Clock::time_point::min())
    hit.since_failure = uint32_t(std::min<seconds::rep>(std::chrono::floor<seconds>(now - e.failed).count(), UINT32_MAX));
  const PrefetchConfig* prefetch = how.prefetch;
  if (!prefetch || !prefetch->enabled || stale) return hit;
  using std::chrono::milliseconds;
  if (now - e.uses_since >= seconds(prefetch->period)) e.uses = 0, e.uses_since = now;
  e.uses += how.uses;
  Clock::duration due = e.stored + milliseconds(refresh_point_ms(e.ttl, prefetch->percentage)) - now;
  hit.refresh_in_ms = uint32_t(std::max<milliseconds::rep>(std::chrono::ceil<milliseconds>(due).count(), 0));
  if (hit.refresh_in_ms == 0 && e.refresh_asked) {
    bump(shard.served_refreshing);
  } else if (hit.refresh_in_ms == 0 && e.uses >= prefetch->min_hits) {
    hit.refresh = e.refresh_asked = true;
    bump(shard.prefetches);
  }
  return hit;
}

void Cache::failed(const CacheKey& key, Clock::time_point now) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  if (auto it = shard.entries.find(key); it != shard.entries.end()) it->second.failed = now;
}

void Cache::insert(const CacheKey& key, std::shared_ptr<const CachedAnswer> answer, uint32_t ttl,
                   Clock::time_point now) {
  if (ttl == 0) return;
  Shard& shard = shard_of(key);
  size_t cost = Shard::cost(key, *answer);
  std::vector<std::shared_ptr<const CachedAnswer>> freed;  // after the mutex
  std::lock_guard lock(shard.mutex);
  if (shard.capacity == 0) return;
  if (cost > shard.budget) {
    bump(shard.too_big);
    if (auto it = shard.entries.find(key); it != shard.entries.end()) freed.push_back(shard.remove(it));
    return;
  }
  auto [it, added] = shard.entries.try_emplace(key);
  Shard::Entry& e = it->second;
  if (added) {
    shard.lru.push_front(&it->first);
    e.used = shard.lru.begin();
  } else {
    shard.lru.splice(shard.lru.begin(), shard.lru, e.used);
  }
  shard.denials_held += denial(*answer);
  if (!added) shard.denials_held -= denial(*e.answer);
  freed.push_back(std::exchange(e.answer, std::move(answer)));
  shard.used_bytes += cost - e.cost;
  e.cost = cost;
  e.stored = now;
  e.ttl = ttl;
  e.refresh_asked = false;
  e.uses = 0;
  e.uses_since = now;
  e.failed = Clock::time_point::min();
  while (shard.entries.size() > shard.capacity || shard.used_bytes > shard.budget) {
    freed.push_back(shard.remove(shard.entries.find(*shard.lru.back())));
    bump(shard.evictions);
  }
  shard.publish();
}

CacheCounters Cache::counters() const {
  CacheCounters c;
  for (size_t i = 0; i < shard_count_; i++) {
    const Shard& s = shards_[i];
    c.hits += read(s.hits);
    c.misses += read(s.misses);
    c.evictions += read(s.evictions);
    c.entries += read(s.size);
    c.denials += read(s.denials);
    c.bytes += read(s.bytes);
    c.too_big += read(s.too_big);
    c.prefetches += read(s.prefetches);
    c.served_refreshing += read(s.served_refreshing);
  }
  return c;
}

}  // namespace rk8s::server
