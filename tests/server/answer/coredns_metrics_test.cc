// SPDX-License-Identifier: Apache-2.0
// CoreDNS's query and cache families (server/answer/coredns_metrics.h):
// each query in requests, responses and durations by CoreDNS 1.8's labels,
// the cache's hits and misses one per query, the entries by type.
#include "server/answer/coredns_metrics.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

QueryInfo answered(const char* zone, uint16_t type, uint8_t rcode, QueryInfo::By by, bool denial = false) {
  QueryInfo info;
  info.has_question = true;
  info.zone = zone;
  info.qtype = type;
  info.rcode = rcode;
  info.by = by;
  info.denial = denial;
  return info;
}

// Counted by `worker` (of two), with its zone's index as the query path
// gives it.
void count(CorednsQueries& m, size_t worker, QueryInfo info, bool tcp, bool ipv6, double seconds) {
  info.zone_index = m.zone_index(info.zone);
  m.count(worker, info, tcp, ipv6, seconds);
}

TEST(CorednsQueries, RequestsResponsesAndDurations) {
  CorednsQueries m("dns://169.254.20.10:53", 2);
  count(m, 1, answered("cluster.local.", dns::kTypeA, dns::kNoError, QueryInfo::By::cache), false, false, 0.0001);
  count(m, 0, answered("cluster.local.", dns::kTypeA, dns::kNoError, QueryInfo::By::upstream), false, false, 0.003);
  count(m, 1, answered("cluster.local.", 65, dns::kNxDomain, QueryInfo::By::upstream, true), true, true, 0.003);
  count(m, 0, answered(".", 99, dns::kServFail, QueryInfo::By::server), false, true, 20);
  count(m, 1, answered("", dns::kTypeAAAA, dns::kRefused, QueryInfo::By::server), false, false, 0);  // the fallback
  QueryInfo dropped = answered("cluster.local.", dns::kTypeA, dns::kNoError, QueryInfo::By::server);
  dropped.dropped = true;
  count(m, 0, dropped, false, false, 1);
  QueryInfo no_question;
  count(m, 1, no_question, false, false, 0);
  const std::string text = m.render(0, 0);
  const std::string s = "server=\"dns://169.254.20.10:53\",";
  EXPECT_EQ(lines_starting(text, "coredns_dns_requests_total"),
            (Strings{"coredns_dns_requests_total{" + s + "zone=\".\",proto=\"udp\",family=\"1\",type=\"AAAA\"} 1",
                     "coredns_dns_requests_total{" + s + "zone=\".\",proto=\"udp\",family=\"2\",type=\"other\"} 1",
                     "coredns_dns_requests_total{" + s + "zone=\"cluster.local.\",proto=\"tcp\",family=\"2\",type=\"HTTPS\"} 1",
                     "coredns_dns_requests_total{" + s + "zone=\"cluster.local.\",proto=\"udp\",family=\"1\",type=\"A\"} 2"}));
  EXPECT_EQ(lines_starting(text, "coredns_dns_responses_total"),
            (Strings{"coredns_dns_responses_total{" + s + "zone=\".\",rcode=\"REFUSED\",plugin=\"\"} 1",
                     "coredns_dns_responses_total{" + s + "zone=\".\",rcode=\"SERVFAIL\",plugin=\"\"} 1",
                     "coredns_dns_responses_total{" + s + "zone=\"cluster.local.\",rcode=\"NOERROR\",plugin=\"cache\"} 1",
                     "coredns_dns_responses_total{" + s + "zone=\"cluster.local.\",rcode=\"NOERROR\",plugin=\"forward\"} 1",
                     "coredns_dns_responses_total{" + s + "zone=\"cluster.local.\",rcode=\"NXDOMAIN\",plugin=\"forward\"} 1"}));
  EXPECT_EQ(lines_starting(text, "coredns_dns_request_duration_seconds_count"),
            (Strings{"coredns_dns_request_duration_seconds_count{" + s + "zone=\".\",type=\"AAAA\"} 1",
                     "coredns_dns_request_duration_seconds_count{" + s + "zone=\".\",type=\"other\"} 1",
                     "coredns_dns_request_duration_seconds_count{" + s + "zone=\"cluster.local.\",type=\"A\"} 2",
                     "coredns_dns_request_duration_seconds_count{" + s + "zone=\"cluster.local.\",type=\"HTTPS\"} 1"}));
  const std::string a = "coredns_dns_request_duration_seconds_bucket{" + s + "zone=\"cluster.local.\",type=\"A\",";
  EXPECT_EQ(lines_starting(text, a + "le=\"0.00025\"} 1").size(), 1u);
  EXPECT_EQ(lines_starting(text, a + "le=\"0.004\"} 2").size(), 1u);
  const std::string other = "coredns_dns_request_duration_seconds_bucket{" + s + "zone=\".\",type=\"other\",";
  EXPECT_EQ(lines_starting(text, other + "le=\"8.192\"} 0").size(), 1u) << "CoreDNS's last bound";
  EXPECT_EQ(lines_starting(text, other + "le=\"+Inf\"} 1").size(), 1u);
  EXPECT_EQ(lines_starting(text, "# TYPE coredns_dns_request_duration_seconds"),
            Strings{"# TYPE coredns_dns_request_duration_seconds histogram"});
  EXPECT_TRUE(lines_starting(text, "resolv_k8s_").empty());
}

TEST(CorednsQueries, CacheHitsMissesAndEntries) {
  CorednsQueries m("dns://127.0.0.1:53", 2);
  count(m, 0, answered("cluster.local.", dns::kTypeA, dns::kNoError, QueryInfo::By::cache), false, false, 0);
  count(m, 1, answered("cluster.local.", dns::kTypeA, dns::kNoError, QueryInfo::By::cache), false, false, 0);
  count(m, 0, answered("cluster.local.", dns::kTypeA, dns::kNxDomain, QueryInfo::By::cache, true), false, false, 0);
  count(m, 1, answered(".", dns::kTypeA, dns::kNoError, QueryInfo::By::upstream), false, false, 0.01);
  count(m, 0, answered("example.com.", dns::kTypeA, dns::kNoError, QueryInfo::By::data), false, false, 0);
  const std::string text = m.render(7, 3);
  const std::string s = "server=\"dns://127.0.0.1:53\"";
  EXPECT_EQ(lines_starting(text, "coredns_cache_"),
            (Strings{"coredns_cache_entries{" + s + ",type=\"denial\"} 3",
                     "coredns_cache_entries{" + s + ",type=\"success\"} 4",
                     "coredns_cache_hits_total{" + s + ",type=\"denial\"} 1",
                     "coredns_cache_hits_total{" + s + ",type=\"success\"} 2",
                     "coredns_cache_misses_total{" + s + "} 1"}));
  EXPECT_EQ(lines_starting(text, "coredns_dns_responses_total{" + s + ",zone=\"example.com.\""),
            Strings{"coredns_dns_responses_total{" + s + ",zone=\"example.com.\",rcode=\"NOERROR\",plugin=\"file\"} 1"});
}

}  // namespace
}  // namespace rk8s::server::test
