// SPDX-License-Identifier: Apache-2.0
// The query families (server/answer/metrics.h): queries by type and
// rcode, dropped ones, autopath and the marker path, answer durations.
#include "server/answer/metrics.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

QueryInfo answered(uint16_t type, uint8_t rcode) {
  QueryInfo info;
  info.has_question = true;
  info.qtype = type;
  info.rcode = rcode;
  return info;
}

// `cut`: of the candidates walked, those a cut skipped.
QueryInfo autopath_query(uint8_t status, size_t walked, CandidatesCut cut = {}) {
  QueryInfo info = answered(dns::kTypeA, dns::kNoError);
  info.has_option = true;
  info.autopath = autopath::ReplyOption{0, status, 0};
  info.walked = walked;
  info.cut = cut;
  return info;
}

QueryInfo marker_query(uint8_t status, size_t walked, CandidatesCut cut = {}) {
  QueryInfo info = answered(dns::kTypeA, dns::kNoError);
  info.marker_status = status;
  info.marker_walked = walked;
  info.cut = cut;
  return info;
}

TEST(QueryMetrics, QueriesByTypeAndRcodeAndDropped) {
  QueryMetrics m("dns://127.0.0.1:53", 2);
  for (const QueryInfo& info :
       {answered(dns::kTypeA, dns::kNoError), answered(dns::kTypeA, dns::kNoError),
        answered(dns::kTypeAAAA, dns::kNxDomain), answered(99, dns::kServFail),
        answered(dns::kTypeA, dns::kBadVers)})
    m.count(1, info);
  QueryInfo dropped = answered(dns::kTypeA, dns::kNoError);
  dropped.dropped = true;
  m.count(0, dropped);
  const std::string text = m.render();
  EXPECT_EQ(lines_starting(text, "resolv_k8s_queries_total"),
            (Strings{"resolv_k8s_queries_total{type=\"A\",rcode=\"NOERROR\"} 2",
                     "resolv_k8s_queries_total{type=\"A\",rcode=\"BADVERS\"} 1",
                     "resolv_k8s_queries_total{type=\"AAAA\",rcode=\"NXDOMAIN\"} 1",
                     "resolv_k8s_queries_total{type=\"other\",rcode=\"SERVFAIL\"} 1"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_dropped_total"), Strings{"resolv_k8s_dropped_total 1"});
  EXPECT_EQ(lines_starting(text, "# TYPE resolv_k8s_queries_total"),
            Strings{"# TYPE resolv_k8s_queries_total counter"});
}

TEST(QueryMetrics, AutopathAndMarkerStatusesAndQueriesSaved) {
  QueryMetrics m("dns://127.0.0.1:53", 2);
  m.count(1, autopath_query(autopath::kMatched, 3, {1, 1}));  // two queries saved, both cut
  m.count(0, autopath_query(autopath::kMatched, 1));   // none
  m.count(1, autopath_query(autopath::kExhausted, 4));  // three
  m.count(0, marker_query(autopath::kMatched, 4, {1, 2}));   // the three before the match, all cut
  m.count(1, marker_query(autopath::kExhausted, 6));    // the client walks on: none
  m.count(0, answered(dns::kTypeA, dns::kNoError));     // neither
  const std::string text = m.render();
  EXPECT_EQ(lines_starting(text, "resolv_k8s_autopath_"),
            (Strings{"resolv_k8s_autopath_total{status=\"matched\"} 2",
                     "resolv_k8s_autopath_total{status=\"exhausted\"} 1",
                     "resolv_k8s_autopath_total{status=\"servfail_seen\"} 0",
                     "resolv_k8s_autopath_total{status=\"rejected\"} 0",
                     "resolv_k8s_autopath_candidates_walked_total 8",
                     "resolv_k8s_autopath_queries_saved_total 5",
                     "resolv_k8s_autopath_candidates_cut_total{cut=\"schema\"} 2",
                     "resolv_k8s_autopath_candidates_cut_total{cut=\"rfc8020\"} 3"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_marker_"),
            (Strings{"resolv_k8s_marker_total{status=\"matched\"} 1",
                     "resolv_k8s_marker_total{status=\"exhausted\"} 1",
                     "resolv_k8s_marker_total{status=\"servfail_seen\"} 0",
                     "resolv_k8s_marker_total{status=\"rejected\"} 0",
                     "resolv_k8s_marker_queries_saved_total 3"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_queries_total"),
            Strings{"resolv_k8s_queries_total{type=\"A\",rcode=\"NOERROR\"} 6"});
}

TEST(QueryMetrics, DurationsByServerAndRcodeInCorednsBuckets) {
  QueryMetrics m("dns://127.0.0.1:53", 2);
  m.duration(0, dns::kNoError, 0.0003);
  m.duration(1, dns::kNoError, 0.003);
  m.duration(0, dns::kNxDomain, 20);
  const std::string text = m.render();
  const std::string noerror = "resolv_k8s_request_duration_seconds_bucket{server=\"dns://127.0.0.1:53\",rcode=\"NOERROR\",";
  EXPECT_EQ(lines_starting(text, noerror + "le=\"0.0"),
            (Strings{noerror + "le=\"0.00025\"} 0", noerror + "le=\"0.0005\"} 1", noerror + "le=\"0.001\"} 1",
                     noerror + "le=\"0.002\"} 1", noerror + "le=\"0.004\"} 2", noerror + "le=\"0.008\"} 2",
                     noerror + "le=\"0.016\"} 2", noerror + "le=\"0.032\"} 2", noerror + "le=\"0.064\"} 2"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_request_duration_seconds_count"),
            (Strings{"resolv_k8s_request_duration_seconds_count{server=\"dns://127.0.0.1:53\",rcode=\"NOERROR\"} 2",
                     "resolv_k8s_request_duration_seconds_count{server=\"dns://127.0.0.1:53\",rcode=\"NXDOMAIN\"} 1"}));
  const std::string nxdomain = "resolv_k8s_request_duration_seconds_bucket{server=\"dns://127.0.0.1:53\",rcode=\"NXDOMAIN\",";
  EXPECT_EQ(lines_starting(text, nxdomain + "le=\"8.192\"} 0").size(), 1u) << "20 s is past the last bound";
  EXPECT_EQ(lines_starting(text, nxdomain + "le=\"+Inf\"} 1").size(), 1u);
  EXPECT_EQ(lines_starting(text, "resolv_k8s_request_duration_seconds_sum{server=\"dns://127.0.0.1:53\",rcode=\"NXDOMAIN\"} 20").size(), 1u);
}

}  // namespace
}  // namespace rk8s::server::test
