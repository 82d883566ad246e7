// SPDX-License-Identifier: Apache-2.0
// Forwarding's families (server/forward/metrics.h): durations by
// upstream and rcode, health checks sent and failed, each upstream's state
// and its times down, every upstream down, refusals by limit.
#include "server/forward/metrics.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

TEST(ForwardMetrics, EmptyFamiliesSayZero) {
  EXPECT_EQ(ForwardMetrics().render(),
            "# HELP resolv_k8s_forward_request_duration_seconds Upstream round trips, by upstream and rcode.\n"
            "# TYPE resolv_k8s_forward_request_duration_seconds histogram\n"
            "# HELP resolv_k8s_forward_healthchecks_total Health checks sent, by upstream.\n"
            "# TYPE resolv_k8s_forward_healthchecks_total counter\n"
            "# HELP resolv_k8s_forward_healthcheck_failures_total Failed health checks, by upstream.\n"
            "# TYPE resolv_k8s_forward_healthcheck_failures_total counter\n"
            "# HELP resolv_k8s_forward_upstream_down Upstreams down by their health checks now, by upstream.\n"
            "# TYPE resolv_k8s_forward_upstream_down gauge\n"
            "# HELP resolv_k8s_forward_upstream_down_total Times an upstream went down, by upstream.\n"
            "# TYPE resolv_k8s_forward_upstream_down_total counter\n"
            "# HELP resolv_k8s_forward_healthcheck_broken_total Times every upstream of a zone was down.\n"
            "# TYPE resolv_k8s_forward_healthcheck_broken_total counter\n"
            "resolv_k8s_forward_healthcheck_broken_total 0\n"
            "# HELP resolv_k8s_forward_max_concurrent_rejects_total Queries refused: too many in flight.\n"
            "# TYPE resolv_k8s_forward_max_concurrent_rejects_total counter\n"
            "resolv_k8s_forward_max_concurrent_rejects_total 0\n"
            "# HELP resolv_k8s_forward_limited_total Questions turned away, by the limit they met.\n"
            "# TYPE resolv_k8s_forward_limited_total counter\n"
            "# HELP resolv_k8s_cache_served_stale_total Expired answers served (RFC 8767), by why.\n"
            "# TYPE resolv_k8s_cache_served_stale_total counter\n"
            "# HELP resolv_k8s_cache_below_nxdomain_total Questions answered from an NXDOMAIN cached above them "
            "(RFC 8020, autopath.rfc8020Cut).\n"
            "# TYPE resolv_k8s_cache_below_nxdomain_total counter\n"
            "resolv_k8s_cache_below_nxdomain_total 0\n"
            "# HELP resolv_k8s_forward_tls_connections_total TLS connections opened, by upstream.\n"
            "# TYPE resolv_k8s_forward_tls_connections_total counter\n"
            "# HELP resolv_k8s_forward_tls_handshakes_total TLS handshakes done, by upstream and whether resumed.\n"
            "# TYPE resolv_k8s_forward_tls_handshakes_total counter\n"
            "# HELP resolv_k8s_forward_tls_failures_total TLS connections failed, by upstream and reason.\n"
            "# TYPE resolv_k8s_forward_tls_failures_total counter\n"
            "# HELP resolv_k8s_forward_tls_reused_total Queries sent on a TLS connection already open, by upstream.\n"
            "# TYPE resolv_k8s_forward_tls_reused_total counter\n");
}

TEST(TlsMetrics, ByUpstreamAndReason) {
  TlsMetrics m;
  for (int i = 0; i < 3; i++) m.opened("10.0.0.1:853");
  m.handshake("10.0.0.1:853", false);
  m.handshake("10.0.0.1:853", true);
  m.failed("10.0.0.1:853", "verification");
  for (int i = 0; i < 5; i++) m.reused("10.0.0.1:853");
  std::string text = m.render();
  for (const char* line : {"resolv_k8s_forward_tls_connections_total{to=\"10.0.0.1:853\"} 3\n",
                           "resolv_k8s_forward_tls_handshakes_total{to=\"10.0.0.1:853\",resumed=\"false\"} 1\n",
                           "resolv_k8s_forward_tls_handshakes_total{to=\"10.0.0.1:853\",resumed=\"true\"} 1\n",
                           "resolv_k8s_forward_tls_failures_total{to=\"10.0.0.1:853\",reason=\"verification\"} 1\n",
                           "resolv_k8s_forward_tls_reused_total{to=\"10.0.0.1:853\"} 5\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "--- in:\n" << text;
}

TEST(ForwardMetrics, ByUpstreamAndRcode) {
  ForwardMetrics m;
  m.request("10.0.0.1:53", "NOERROR", 0.0009);
  m.request("10.0.0.1:53", "NOERROR", 0.0009);
  m.request("10.0.0.1:53", "timeout", 2);
  for (int i = 0; i < 3; i++) m.health_check("10.0.0.2:53");
  m.health_check_failed("10.0.0.2:53");
  m.health_check_failed("10.0.0.2:53");
  // 10.0.0.1 in a zone's list; 10.0.0.2 in two, down in both, up again in one.
  for (const char* to : {"10.0.0.1:53", "10.0.0.2:53", "10.0.0.2:53"}) m.upstream_known(to);
  m.upstream_down("10.0.0.2:53", true);
  m.upstream_down("10.0.0.2:53", true);
  m.upstream_down("10.0.0.2:53", false);
  m.all_down();
  for (int i = 0; i < 3; i++) m.limited("maxConcurrent");
  m.limited("share");
  EXPECT_EQ(m.limited_count(), 4u);
  m.stale("timeout");
  m.stale("timeout");
  m.stale("failed");
  const std::string text = m.render();
  const std::string noerror = "resolv_k8s_forward_request_duration_seconds_bucket{to=\"10.0.0.1:53\",rcode=\"NOERROR\",";
  const std::string timeout = "resolv_k8s_forward_request_duration_seconds_bucket{to=\"10.0.0.1:53\",rcode=\"timeout\",";
  for (const std::string& line :
       {noerror + "le=\"0.0005\"} 0", noerror + "le=\"0.001\"} 2", noerror + "le=\"+Inf\"} 2",
        timeout + "le=\"1.024\"} 0", timeout + "le=\"2.048\"} 1",
        std::string("resolv_k8s_forward_request_duration_seconds_count{to=\"10.0.0.1:53\",rcode=\"timeout\"} 1"),
        std::string("resolv_k8s_forward_request_duration_seconds_sum{to=\"10.0.0.1:53\",rcode=\"timeout\"} 2")})
    EXPECT_EQ(lines_starting(text, line), Strings{line});
  EXPECT_EQ(lines_starting(text, "resolv_k8s_forward_health"),
            (Strings{"resolv_k8s_forward_healthchecks_total{to=\"10.0.0.2:53\"} 3",
                     "resolv_k8s_forward_healthcheck_failures_total{to=\"10.0.0.2:53\"} 2",
                     "resolv_k8s_forward_healthcheck_broken_total 1"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_forward_upstream_down"),
            (Strings{"resolv_k8s_forward_upstream_down{to=\"10.0.0.1:53\"} 0",
                     "resolv_k8s_forward_upstream_down{to=\"10.0.0.2:53\"} 1",
                     "resolv_k8s_forward_upstream_down_total{to=\"10.0.0.1:53\"} 0",
                     "resolv_k8s_forward_upstream_down_total{to=\"10.0.0.2:53\"} 2"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_forward_max_concurrent_rejects_total"),
            Strings{"resolv_k8s_forward_max_concurrent_rejects_total 3"});
  EXPECT_EQ(lines_starting(text, "resolv_k8s_forward_limited_total{"),
            (Strings{"resolv_k8s_forward_limited_total{limit=\"maxConcurrent\"} 3",
                     "resolv_k8s_forward_limited_total{limit=\"share\"} 1"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_cache_served_stale_total{"),
            (Strings{"resolv_k8s_cache_served_stale_total{reason=\"failed\"} 1",
                     "resolv_k8s_cache_served_stale_total{reason=\"timeout\"} 2"}));
}

// CoreDNS 1.8's forward families from the same counts: every question sent
// a request, a reply counted by its rcode, no reply (timeout, error) a
// request alone; a health check failure series for each known upstream.
TEST(ForwardMetrics, CorednsFamilies) {
  ForwardMetrics m;
  m.upstream_known("10.0.0.1:53");
  m.upstream_known("10.0.0.2:53");
  m.request("10.0.0.1:53", "NOERROR", 0.0009);
  m.request("10.0.0.1:53", "SERVFAIL", 0.003);
  m.request("10.0.0.1:53", "timeout", 2);
  m.request("10.0.0.1:53", "error", 0.0001);
  m.health_check_failed("10.0.0.2:53");
  m.all_down();
  const std::string text = m.render_coredns();
  EXPECT_EQ(lines_starting(text, "coredns_forward_requests_total"),
            Strings{"coredns_forward_requests_total{to=\"10.0.0.1:53\"} 4"});
  EXPECT_EQ(lines_starting(text, "coredns_forward_responses_total"),
            (Strings{"coredns_forward_responses_total{rcode=\"NOERROR\",to=\"10.0.0.1:53\"} 1",
                     "coredns_forward_responses_total{rcode=\"SERVFAIL\",to=\"10.0.0.1:53\"} 1"}));
  EXPECT_EQ(lines_starting(text, "coredns_forward_request_duration_seconds_count"),
            (Strings{"coredns_forward_request_duration_seconds_count{to=\"10.0.0.1:53\",rcode=\"NOERROR\"} 1",
                     "coredns_forward_request_duration_seconds_count{to=\"10.0.0.1:53\",rcode=\"SERVFAIL\"} 1"}));
  const std::string bucket = "coredns_forward_request_duration_seconds_bucket{to=\"10.0.0.1:53\",rcode=\"NOERROR\",";
  EXPECT_EQ(lines_starting(text, bucket + "le=\"0.00025\"} 0").size(), 1u);
  EXPECT_EQ(lines_starting(text, bucket + "le=\"8.192\"} 1").size(), 1u);
  EXPECT_EQ(lines_starting(text, "coredns_forward_healthcheck"),
            (Strings{"coredns_forward_healthcheck_failures_total{to=\"10.0.0.1:53\"} 0",
                     "coredns_forward_healthcheck_failures_total{to=\"10.0.0.2:53\"} 1",
                     "coredns_forward_healthcheck_broken_total 1"}));
  EXPECT_EQ(lines_starting(text, "# TYPE coredns_forward_request_duration_seconds"),
            Strings{"# TYPE coredns_forward_request_duration_seconds histogram"});
  EXPECT_TRUE(lines_starting(text, "resolv_k8s_").empty());
}

}  // namespace
}  // namespace rk8s::server::test
