// SPDX-License-Identifier: Apache-2.0
// limits.clientQPS: at most so many queries a second from one client
// address (a token bucket holding a second's worth); the rest are dropped
// unanswered, as dnsdist's MaxQPSIPRule drops them. The buckets are a
// fixed table indexed by the address's hash, so their memory is the same
// whatever the senders; two addresses that share a bucket share its rate.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

namespace rk8s::server {

class ClientRate {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t kBuckets = 16384;

  explicit ClientRate(unsigned qps);  // 0: no limit, no table
  ~ClientRate();

  bool allow(const sockaddr_storage& from, Clock::time_point now);
  uint64_t dropped() const { return dropped_; }

 private:
  struct Bucket;
  struct Stripe;

  const uint64_t qps_;
  std::unique_ptr<Bucket[]> buckets_;
  std::unique_ptr<Stripe[]> stripes_;
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace rk8s::server
