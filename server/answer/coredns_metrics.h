// SPDX-License-Identifier: Apache-2.0
// The queries answered in CoreDNS's metrics plugin's families and its
// cache plugin's query counters (CoreDNS 1.8's labels), for the dashboards
// and coredns-mixin alerts that watch NodeLocal DNSCache: requests by
// zone, protocol, address family and type; responses by zone, rcode and
// the part that wrote them; answer times by zone and type; cache hits
// (success, denial) and misses, one per query as CoreDNS counts them.
// Counted apart from QueryMetrics, whose keys (type, rcode) these do not
// carry.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "common/prometheus.h"
#include "server/model/query_info.h"

namespace rk8s::server {

class CorednsQueries {
 public:
  // `server`: "dns://ADDR:PORT", the first listen address for all.
  explicit CorednsQueries(std::string server) : server_(std::move(server)) {}

  void count(const QueryInfo& info, bool tcp, bool ipv6, double seconds);
  // The families, coredns_ prefixed; cache_entries{type} from `entries`
  // and `denials` (the cache's answers and its negative ones among them).
  std::string render(uint64_t entries, uint64_t denials) const;

 private:
  // zone, proto, family, type, rcode, plugin, denial
  using Key = std::tuple<std::string, bool, bool, std::string, uint8_t, uint8_t, bool>;
  const std::string server_;
  mutable std::mutex mutex_;
  std::map<Key, Histogram> queries_;
};

}  // namespace rk8s::server
