// SPDX-License-Identifier: Apache-2.0
// Whole replies kept for the queries that asked them: the same query again,
// byte for byte but its ID (clients and dnsperf repeat theirs), is answered
// with a copy, its ID set and its TTLs moved on by the seconds it was kept.
// Nothing is parsed, resolved or allocated on a hit. A reply is kept no
// longer than its smallest TTL and QueryInfo::reusable, and only for the
// runtime (configuration) that made it; at QueryInfo::refresh_in_ms one query
// goes through to the resolver instead (a prefetch is due). The table is
// direct-mapped: a reply replaces the one in its slot. Its memory is
// bounded by a budget in bytes: a reply that would exceed it is not kept.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "server/model/query_info.h"


namespace rk8s::server {

class PacketCache {
 public:
  using Clock = std::chrono::steady_clock;
  // Longer queries (many autopath candidates) are not kept.
  static constexpr size_t kMaxQuery = 512;

  // `slots` replies and `max_bytes` at most; 0 keeps none.
  PacketCache(size_t slots, size_t max_bytes);
  ~PacketCache();

  // The reply to `query` into `reply` and what it answered into `info`;
  // false when none is kept for `generation`, or when the query comes
  // through for a prefetch (then info.repeats: the hits since it was kept).
  bool find(Bytes query, uint64_t generation, Clock::time_point now, std::vector<uint8_t>& reply,
            QueryInfo& info);
  // Keeps `reply` to `query`, made by runtime `generation`, if it may be.
  void insert(Bytes query, uint64_t generation, const std::vector<uint8_t>& reply,
              const QueryInfo& info, Clock::time_point now);
  uint64_t hits() const;
  size_t bytes() const { return bytes_; }

 private:
  struct Entry;
  struct Stripe;

  std::vector<std::unique_ptr<Entry>> slots_;
  std::unique_ptr<Stripe[]> stripes_;
  const size_t max_bytes_;
  std::atomic<size_t> bytes_{0};
};

}  // namespace rk8s::server
