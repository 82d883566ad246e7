// SPDX-License-Identifier: Apache-2.0
#include "server/process/client_rate.h"

#include <netinet/in.h>

#include <algorithm>
#include <string_view>

namespace rk8s::server {
namespace {

constexpr size_t kStripes = 64;  // locks, bucket i under stripe i % kStripes
constexpr uint64_t kMicro = 1000000;

std::string_view address_of(const sockaddr_storage& from) {
  if (from.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(from).sin6_addr;
    return {reinterpret_cast<const char*>(&a), sizeof a};
  }
  const auto& a = reinterpret_cast<const sockaddr_in&>(from).sin_addr;
  return {reinterpret_cast<const char*>(&a), sizeof a};
}

}  // namespace

struct ClientRate::Bucket {
  uint64_t tokens = 0;  // millionths of a query
  Clock::time_point last;
};

struct alignas(64) ClientRate::Stripe {
  std::mutex mutex;
};

ClientRate::ClientRate(unsigned qps)
    : qps_(qps), buckets_(qps ? new Bucket[kBuckets] : nullptr), stripes_(qps ? new Stripe[kStripes] : nullptr) {}

ClientRate::~ClientRate() = default;

bool ClientRate::allow(const sockaddr_storage& from, Clock::time_point now) {
  if (!qps_) return true;
  size_t i = std::hash<std::string_view>{}(address_of(from)) % kBuckets;
  std::lock_guard<std::mutex> lock(stripes_[i % kStripes].mutex);
  Bucket& b = buckets_[i];
  uint64_t us = uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(now - b.last).count());
  b.tokens = std::min(qps_ * kMicro, b.tokens + std::min(us, kMicro) * qps_);
  b.last = now;
  if (b.tokens < kMicro) {
    dropped_++;
    return false;
  }
  b.tokens -= kMicro;
  return true;
}

}  // namespace rk8s::server
