// SPDX-License-Identifier: Apache-2.0
#include "server/cache/packet_cache.h"

#include "server/cache/reply.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string_view>
#include <utility>

namespace rk8s::server {

namespace {

constexpr size_t kStripes = 64;  // locks, slot i under stripe i % kStripes

std::string_view key_of(Bytes query) {
  return {reinterpret_cast<const char*>(query.data) + 2, query.size - 2};  // all but the ID
}

bool keyable(Bytes query) { return query.size >= 12 && query.size <= PacketCache::kMaxQuery; }

uint32_t get32(const uint8_t* p) { return uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

void put32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24), p[1] = uint8_t(v >> 16), p[2] = uint8_t(v >> 8), p[3] = uint8_t(v);
}

}  // namespace

struct PacketCache::Entry {
  std::string key;
  uint64_t generation = 0;
  Clock::time_point stored;
  uint32_t life = 0;  // seconds
  Clock::time_point refresh_at = Clock::time_point::max();  // one question comes through then
  bool came_through = false;
  uint32_t repeats = 0;  // hits since it was stored
  bool ttls_count_down = false;
  std::vector<uint8_t> reply;
  std::vector<uint16_t> ttl_at;  // where each record's TTL is in `reply`
  QueryInfo info;
  size_t cost = 0;  // bytes charged
};

struct alignas(64) PacketCache::Stripe {
  std::mutex mutex;
  std::atomic<uint64_t> hits{0};
};

PacketCache::PacketCache(size_t slots, size_t max_bytes)
    : slots_(max_bytes ? slots : 0), stripes_(new Stripe[kStripes]), max_bytes_(max_bytes) {}

PacketCache::~PacketCache() = default;

bool PacketCache::find(Bytes query, uint64_t generation, Clock::time_point now,
                       std::vector<uint8_t>& reply, QueryInfo& info) {
  if (slots_.empty() || !keyable(query)) return false;
  std::string_view key = key_of(query);
  size_t slot = std::hash<std::string_view>{}(key) % slots_.size();
  Stripe& stripe = stripes_[slot % kStripes];
  {
    std::lock_guard lock(stripe.mutex);
    Entry* e = slots_[slot].get();
    if (!e || e->generation != generation || e->key != key) return false;
    auto age = std::chrono::floor<std::chrono::seconds>(now - e->stored).count();
    uint32_t elapsed = uint32_t(std::max<decltype(age)>(age, 0));
    if (elapsed >= e->life) return false;
    if (now >= e->refresh_at && !e->came_through) {
      e->came_through = true;
      info.repeats = std::exchange(e->repeats, 0);
      return false;
    }
    e->repeats++;
    reply.assign(e->reply.begin(), e->reply.end());
    info = e->info;
    // Every TTL is at least `life`, so none reaches 0.
    if (e->ttls_count_down && elapsed > 0)
      for (uint16_t at : e->ttl_at) put32(&reply[at], get32(&reply[at]) - elapsed);
  }
  reply[0] = query.data[0], reply[1] = query.data[1];
  stripe.hits.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void PacketCache::insert(Bytes query, uint64_t generation, const std::vector<uint8_t>& reply,
                         const QueryInfo& info, Clock::time_point now) {
  if (slots_.empty() || !keyable(query) || info.reusable == 0) return;
  dns::Reader reader(reply.data(), reply.size());
  dns::Header header;
  if (!reader.header(header)) return;
  uint32_t life = info.reusable;
  std::vector<uint16_t> ttl_at;
  dns::Record rec;
  while (reader.record(rec)) {
    if (rec.type == dns::kTypeOPT) continue;  // its TTL field holds flags
    ttl_at.push_back(uint16_t(rec.rdata_off - 6));
    life = std::min(life, rec.ttl);
  }
  if (!reader.ok() || life == 0) return;

  std::string_view key = key_of(query);
  size_t slot = std::hash<std::string_view>{}(key) % slots_.size();
  size_t cost = heap_bytes(sizeof(Entry)) + heap_bytes(key.size() + 1) + heap_bytes(reply.size()) +
                heap_bytes(ttl_at.size() * sizeof(uint16_t));
  std::unique_ptr<Entry> freed;  // after the lock
  std::lock_guard lock(stripes_[slot % kStripes].mutex);
  std::unique_ptr<Entry>& e = slots_[slot];
  size_t old = e ? e->cost : 0;
  if (bytes_ - old + cost > max_bytes_) {  // the slot's reply goes all the same
    freed = std::move(e);
    bytes_ -= old;
    return;
  }
  bytes_ += cost - old;
  if (!e) e = std::make_unique<Entry>();
  e->cost = cost;
  e->key.assign(key);
  e->generation = generation;
  e->stored = now;
  e->life = life;
  e->refresh_at = info.refresh_in_ms == UINT32_MAX ? Clock::time_point::max()
                                                   : now + std::chrono::milliseconds(info.refresh_in_ms);
  e->came_through = info.refresh_in_ms == 0;  // it came through for the refresh
  e->repeats = 0;
  e->ttls_count_down = info.ttls_count_down;
  e->reply.assign(reply.begin(), reply.end());
  e->reply.shrink_to_fit();
  e->ttl_at.swap(ttl_at);
  e->info = info;
}

uint64_t PacketCache::hits() const {
  uint64_t n = 0;
  for (size_t i = 0; i < kStripes; i++) n += stripes_[i].hits.load(std::memory_order_relaxed);
  return n;
}

}  // namespace rk8s::server
