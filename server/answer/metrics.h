// SPDX-License-Identifier: Apache-2.0
// The queries answered, in the Prometheus text format: by type and rcode,
// never answered, autopath and marker statuses and the queries they saved,
// and how long each took to answer. Each worker counts in a set of its
// own (OwnCounter: no lock, no cache line shared), summed when rendered.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/prometheus.h"
#include "server/model/query_info.h"

namespace rk8s::server {

class QueryMetrics {
 public:
  static constexpr int kTypeSlots = 11;   // the types we name, then "other"
  static constexpr int kRcodeSlots = 17;  // 0..15, then BADVERS
  static constexpr int kStatusSlots = 4;

  // `server`: the durations' label, CoreDNS's "dns://ADDR:PORT"; `workers`:
  // the threads that count, each `worker` below one of 0 to workers - 1, and
  // only ever counted by that thread.
  QueryMetrics(std::string server, size_t workers);

  void count(size_t worker, const QueryInfo& info);
  // How long a query took to answer, by rcode.
  void duration(size_t worker, uint8_t rcode, double seconds);
  std::string render() const;

 private:
  struct alignas(64) Counts {
    OwnCounter queries[kTypeSlots][kRcodeSlots];
    OwnCounter dropped;
    OwnCounter autopath[kStatusSlots];
    OwnCounter walked;
    OwnCounter saved;
    OwnCounter schema_cut;
    OwnCounter rfc8020_cut;
    OwnCounter marker[kStatusSlots];
    OwnCounter marker_saved;
    OwnHistogram durations[kRcodeSlots];
  };
  // Of every worker's `member`.
  template <typename Member>
  uint64_t sum(Member member) const;

  const std::string server_;
  std::vector<Counts> workers_;
};

}  // namespace rk8s::server
