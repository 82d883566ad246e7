// SPDX-License-Identifier: Apache-2.0
// The cache's families (server/cache/metrics.h), CoreDNS's with
// our prefix, and the packet cache's hits.
#include "server/cache/metrics.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

TEST(CacheMetrics, EveryCounterInItsFamily) {
  CacheCounters c;
  c.entries = 1;
  c.hits = 2;
  c.misses = 3;
  c.evictions = 4;
  c.prefetches = 6;
  c.served_refreshing = 7;
  c.bytes = 9;
  c.too_big = 10;
  const std::string text = render_cache_metrics(c, 8);
  EXPECT_EQ(lines_starting(text, "resolv_k8s_"),
            (Strings{"resolv_k8s_cache_entries 1", "resolv_k8s_cache_bytes 9", "resolv_k8s_cache_hits_total 2",
                     "resolv_k8s_cache_misses_total 3", "resolv_k8s_cache_evictions_total 4",
                     "resolv_k8s_cache_too_big_total 10",
                     "resolv_k8s_cache_prefetch_total 6",
                     "resolv_k8s_cache_served_refreshing_total 7", "resolv_k8s_cache_packet_hits_total 8"}));
  EXPECT_EQ(lines_starting(text, "# TYPE resolv_k8s_cache_entries"),
            Strings{"# TYPE resolv_k8s_cache_entries gauge"});
  EXPECT_EQ(lines_starting(text, "# TYPE").size(), 9u);
  EXPECT_EQ(lines_starting(text, "# HELP").size(), 9u);
  EXPECT_EQ(lines_starting(text, "# TYPE resolv_k8s_cache_hits_total"),
            Strings{"# TYPE resolv_k8s_cache_hits_total counter"});
}

}  // namespace
}  // namespace rk8s::server::test
