// SPDX-License-Identifier: Apache-2.0
// The queries answered in CoreDNS's metrics plugin's families and its
// cache plugin's query counters (CoreDNS 1.8's labels), for the dashboards
// and coredns-mixin alerts that watch NodeLocal DNSCache: requests by
// zone, protocol, address family and type; responses by zone, rcode and
// the part that wrote them; answer times by zone and type; cache hits
// (success, denial) and misses, one per query as CoreDNS counts them.
// Counted apart from QueryMetrics, whose keys (type, rcode) these do not
// carry. Each worker counts in a set of its own (OwnCounter: no lock, no
// cache line shared), by the zone's index, summed when rendered.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/prometheus.h"
#include "server/model/query_info.h"

namespace rk8s::server {

class CorednsQueries {
 public:
  // The zones one process counts apart, every configuration's since it
  // started; those past it are counted as the root's.
  static constexpr size_t kZones = 1024;

  // `server`: "dns://ADDR:PORT", the first listen address for all;
  // `workers`: the threads that count, each `worker` below one of 0 to
  // workers - 1, and only ever counted by that thread.
  CorednsQueries(std::string server, size_t workers);
  ~CorednsQueries();

  // The index of QueryInfo::zone ("" the root's, 0) that count() reads
  // from QueryInfo::zone_index: a lookup under a lock, once per answer
  // that the packet cache then keeps.
  uint16_t zone_index(const std::string& zone);
  void count(size_t worker, const QueryInfo& info, bool tcp, bool ipv6, double seconds);
  // The families, coredns_ prefixed; cache_entries{type} from `entries`
  // and `denials` (the cache's answers and its negative ones among them).
  std::string render(uint64_t entries, uint64_t denials) const;

  static constexpr int kTypeSlots = 19;  // the types CoreDNS names, then "other"
  static constexpr int kRcodeSlots = 17;  // 0..15, then BADVERS
  static constexpr int kPlugins = 4;      // QueryInfo::By

 private:
  struct ZoneCounts {
    OwnCounter requests[2][2][kTypeSlots];  // by TCP, IPv6, type
    OwnCounter responses[kRcodeSlots][kPlugins];
    OwnHistogram durations[kTypeSlots];
  };
  struct alignas(64) Worker {
    // Each made by its worker when it first counts the zone.
    std::atomic<ZoneCounts*> zones[kZones] = {};
    OwnCounter hits[2];  // success, denial
    OwnCounter misses;
  };

  const std::string server_;
  mutable std::mutex mutex_;  // names_, indexes_
  std::vector<std::string> names_;
  std::map<std::string, uint16_t> indexes_;
  std::vector<Worker> workers_;
};

}  // namespace rk8s::server
