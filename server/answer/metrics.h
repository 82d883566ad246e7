// SPDX-License-Identifier: Apache-2.0
// The queries answered, in the Prometheus text format: by type and rcode,
// never answered, autopath and marker statuses and the queries they saved,
// and how long each took to answer.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "common/prometheus.h"
#include "server/model/query_info.h"

namespace rk8s::server {

class QueryMetrics {
 public:
  static constexpr int kTypeSlots = 11;   // the types we name, then "other"
  static constexpr int kRcodeSlots = 17;  // 0..15, then BADVERS
  static constexpr int kStatusSlots = 4;

  void count(const QueryInfo& info);
  // How long a query took to answer, by rcode, for the server at `server`
  // ("dns://ADDR:PORT", CoreDNS's label).
  void duration(const std::string& server, uint8_t rcode, double seconds);
  std::string render() const;

 private:
  std::atomic<uint64_t> queries_[kTypeSlots][kRcodeSlots] = {};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> autopath_[kStatusSlots] = {};
  std::atomic<uint64_t> walked_{0};
  std::atomic<uint64_t> saved_{0};
  std::atomic<uint64_t> schema_cut_{0};
  std::atomic<uint64_t> rfc8020_cut_{0};
  std::atomic<uint64_t> marker_[kStatusSlots] = {};
  std::atomic<uint64_t> marker_saved_{0};
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, Histogram> durations_;
};

}  // namespace rk8s::server
