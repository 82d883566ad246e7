// SPDX-License-Identifier: Apache-2.0
// Counters for --metrics, rendered in the Prometheus text format.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "server/answer/handler.h"

namespace rk8s::server {

class Metrics {
 public:
  static constexpr int kTypeSlots = 11;   // the types we name, then "other"
  static constexpr int kRcodeSlots = 17;  // 0..15, then BADVERS
  static constexpr int kStatusSlots = 4;

  void count(const QueryInfo& info);
  std::string render() const;

 private:
  std::atomic<uint64_t> queries_[kTypeSlots][kRcodeSlots] = {};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> autopath_[kStatusSlots] = {};
  std::atomic<uint64_t> walked_{0};
  std::atomic<uint64_t> saved_{0};
};

}  // namespace rk8s::server
