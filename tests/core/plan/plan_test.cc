// SPDX-License-Identifier: Apache-2.0
// The search plan (glibc 2.36 __res_context_search, musl 1.2.3
// name_from_dns_search) and the autopath query: one case per rule.
#include <gtest/gtest.h>
#include <netdb.h>

#include <string>

#include "plan/plan.h"
#include "resolv-k8s.h"

namespace rk8s {
namespace {

using D = Dialect;

// `release`: the libc's (0: the dialect's reference).
Config make_conf(D d, const std::string& text, uint32_t release = 0) {
  Config c;
  ConfEnv env;
  env.release = release;
  parse_conf(d, text.data(), text.size(), env, c);
  return c;
}

std::string text_of(const dns::Name& n) {
  char buf[1100];
  dns::name_to_text(n, buf, sizeof buf);
  return n.len > 1 ? std::string(buf) + "." : std::string(buf);
}

// "web.s1. web.s2. web." or "invalid".
std::string render(const Config& c, const std::string& name) {
  Plan p;
  build_plan(c, Str{name.data(), name.size()}, p);
  if (p.kind == Plan::invalid_name) return p.error == EAI_NONAME ? "invalid" : "invalid?";
  std::string s;
  dns::Name n;
  for (size_t i = 0; i < p.suffix.count; i++) {
    EXPECT_TRUE(candidate_name(c, p, i, n));
    s += (i ? " " : "") + text_of(n);
  }
  return s;
}

struct Case {
  const char* rule;
  D dialect;
  std::string conf;
  std::string name;
  std::string expect;
  uint32_t release = 0;
};

const uint32_t kMusl124 = release(1, 2, 4);
const uint32_t kGlibc244 = release(2, 44);
const std::string kS = "search s1 s2\noptions ndots:5\n";
const std::string k200 = std::string(63, 'a') + "." + std::string(63, 'b') + "." + std::string(63, 'c');  // 191
const std::string kLong = std::string(63, 'd');

const Case kCases[] = {
    // glibc
    {"glibc_few_dots_search_then_as_is", D::glibc, kS, "web", "web.s1. web.s2. web."},
    {"glibc_dots_reach_ndots_as_is_first", D::glibc, "search s1 s2\noptions ndots:2\n", "a.b.c",
     "a.b.c. a.b.c.s1. a.b.c.s2."},
    {"glibc_dots_below_ndots_search_first", D::glibc, "search s1\noptions ndots:2\n", "a.b", "a.b.s1. a.b."},
    {"glibc_trailing_dot_as_is_only", D::glibc, kS, "web.", "web."},
    {"glibc_marker_left_out", D::glibc,
     "search search.shop.cluster.local.ap.k8s.io shop.svc.cluster.local Search.X.AP.K8S.IO. s1\noptions ndots:5\n",
     "web", "web.shop.svc.cluster.local. web.s1. web."},
    {"musl_marker_left_out", D::musl,
     "search search.shop.cluster.local.ap.k8s.io shop.svc.cluster.local s1\noptions ndots:5\n", "web",
     "web.shop.svc.cluster.local. web.s1. web."},
    {"glibc_marker_shape_only", D::glibc, "search search.ap.k8s.io xsearch.a.ap.k8s.io\noptions ndots:5\n",
     "web", "web.search.ap.k8s.io. web.xsearch.a.ap.k8s.io. web."},
    {"glibc_ndots_zero_dotless_as_is_first", D::glibc, "search s1\noptions ndots:0\n", "web", "web. web.s1."},
    {"glibc_root_on_list_replaces_final_as_is", D::glibc, "search s1 . s2\noptions ndots:5\n", "web",
     "web.s1. web. web.s2."},
    {"glibc_root_on_list_asked_again_after_as_is", D::glibc, "search . s1\n", "a.b", "a.b. a.b. a.b.s1."},
    {"glibc_leading_dot_of_domain_dropped", D::glibc, "search .s1\noptions ndots:5\n", "web", "web.s1. web."},
    {"glibc_no_tld_query_drops_dotless_as_is", D::glibc, kS + "options no-tld-query\n", "web", "web.s1. web.s2."},
    {"glibc_no_tld_query_keeps_as_is_with_dots", D::glibc, kS + "options no-tld-query\n", "a.b",
     "a.b.s1. a.b.s2. a.b."},
    {"glibc_no_tld_query_without_search_list_as_is", D::glibc, "options no-tld-query\n", "web", "web."},
    {"glibc_root_name_asked_as_is", D::glibc, kS, ".", "."},
    {"glibc_hostname_allows_underscore_and_final_dash", D::glibc, kS, "_srv-", "_srv-.s1. _srv-.s2. _srv-."},
    {"glibc_hostname_rejects_leading_dash", D::glibc, kS, "-web", "invalid"},
    {"glibc_hostname_rejects_other_characters", D::glibc, kS, "we!b", "invalid"},
    {"glibc_hostname_rejects_space", D::glibc, kS, "a b", "invalid"},
    {"glibc_hostname_rejects_non_ascii", D::glibc, kS, "caf\xc3\xa9", "invalid"},
    {"glibc_hostname_rejects_empty_label", D::glibc, kS, "a..b", "invalid"},
    {"glibc_hostname_rejects_label_over_63", D::glibc, kS, std::string(64, 'x'), "invalid"},
    {"glibc_hostname_rejects_name_over_255", D::glibc, kS, k200 + "." + kLong, "invalid"},
    {"glibc_empty_name_invalid", D::glibc, kS, "", "invalid"},
    {"glibc_escape_decoded_as_ns_name_pton", D::glibc, "search s1\n", "w\\065b", "wAb.s1. wAb."},
    {"glibc_escaped_dot_rejected", D::glibc, kS, "a\\.b", "invalid"},
    {"glibc_too_long_candidate_stops_search_then_as_is", D::glibc, "search s1 " + kLong + " s3\noptions ndots:5\n",
     k200, k200 + ".s1. " + k200 + "."},
    {"glibc_too_long_candidate_before_root_keeps_as_is", D::glibc, "search " + kLong + " .\noptions ndots:5\n",
     k200, k200 + "."},
    {"glibc_bad_domain_label_stops_search", D::glibc, "search s1 a..b s3\noptions ndots:5\n", "web",
     "web.s1. web."},
    {"glibc_no_candidate_left_invalid", D::glibc, "search " + k200 + "\noptions no-tld-query\n",
     std::string(63, 'x'), "invalid"},
    // glibc 2.44 on (bug 33804): the name as typed asked once, a "." skipped once it was.
    {"glibc244_root_after_as_is_skipped", D::glibc, "search . s1\n", "a.b", "a.b. a.b.s1.", kGlibc244},
    {"glibc244_second_root_skipped", D::glibc, "search . s1 . s2\noptions ndots:2\n", "a.b", "a.b. a.b.s1. a.b.s2.",
     kGlibc244},
    {"glibc244_first_root_asked_in_place", D::glibc, "search s1 . s2\noptions ndots:5\n", "web",
     "web.s1. web. web.s2.", kGlibc244},
    {"glibc244_root_last_replaces_final_as_is", D::glibc, "search s1 s2 .\noptions ndots:5\n", "web",
     "web.s1. web.s2. web.", kGlibc244},
    {"glibc243_second_root_asked_again", D::glibc, "search . s1 . s2\noptions ndots:2\n", "a.b",
     "a.b. a.b.s1. a.b. a.b.s2.", release(2, 43)},
    // musl
    {"musl_few_dots_search_then_as_is", D::musl, kS, "web", "web.s1. web.s2. web."},
    {"musl_dots_reach_ndots_as_is_only", D::musl, "search s1 s2\noptions ndots:2\n", "a.b.c", "a.b.c."},
    {"musl_trailing_dot_as_is_only", D::musl, kS, "web.", "web."},
    {"musl_no_hostname_check", D::musl, kS, "we!b", "we!b.s1. we!b.s2. we!b."},
    {"musl_backslash_is_literal", D::musl, "search s1\n", "w\\065b", "w\\\\065b.s1. w\\\\065b."},
    {"musl_empty_name_invalid", D::musl, kS, "", "invalid"},
    {"musl_root_name_invalid", D::musl, kS, ".", "invalid"},
    {"musl_two_final_dots_invalid", D::musl, kS, "web..", "invalid"},
    {"musl_empty_label_invalid", D::musl, kS, "a..b", "invalid"},
    {"musl_label_over_63_invalid", D::musl, kS, std::string(64, 'x'), "invalid"},
    {"musl_name_of_255_bytes_invalid", D::musl, kS, std::string(255, 'x'), "invalid"},
    {"musl_domain_too_long_for_buffer_skipped", D::musl, "search s1 " + std::string(252, 'd') + " s3\n", "web",
     "web.s1. web.s3. web."},
    {"musl_candidate_over_253_ends_walk", D::musl,
     "search s1 " + std::string(63, 'd') + "." + std::string(63, 'd') + "." + std::string(63, 'd') + "." +
         std::string(59, 'd') + " s3\n",
     "web", "web.s1."},
    {"musl_bad_domain_label_ends_walk", D::musl, "search s1 a..b s3\n", "web", "web.s1."},
    {"musl_first_candidate_unencodable_invalid", D::musl, "search a..b s2\n", "web", "invalid"},
    {"musl_root_domain_ends_walk", D::musl, "search s1 . s2\n", "web", "web.s1."},
    // musl 1.2.4 on: a candidate res_mkquery refuses does not exist; the walk goes on.
    {"musl124_root_domain_skipped", D::musl, "search s1 . s2\n", "web", "web.s1. web.s2. web.", kMusl124},
    {"musl124_bad_domain_label_skipped", D::musl, "search s1 a..b s3\n", "web", "web.s1. web.s3. web.",
     kMusl124},
    {"musl124_first_candidate_unencodable_skipped", D::musl, "search a..b s2\n", "web", "web.s2. web.",
     kMusl124},
    {"musl124_name_over_63_still_invalid", D::musl, kS, std::string(64, 'x'), "invalid", kMusl124},
};

class PlanRule : public testing::TestWithParam<Case> {};

TEST_P(PlanRule, Candidates) {
  const Case& c = GetParam();
  EXPECT_EQ(render(make_conf(c.dialect, c.conf, c.release), c.name), c.expect);
}

INSTANTIATE_TEST_SUITE_P(Rules, PlanRule, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& i) { return std::string(i.param.rule); });

// The autopath query payload, byte for byte (autopath-protocol.md examples).
struct QueryCase {
  const char* rule;
  D dialect;
  std::string conf;
  std::string name;
  uint8_t flags;
  bool sent;
  std::string qname;
  std::string payload;  // encode_query output; empty when no option
};

const QueryCase kQueries[] = {
    {"protocol_example_web", D::glibc, kS, "web", 0, true, "web.s1.",
     std::string("\x01\x01\x02s1\x00\x02s2\x00\x00", 11)},
    {"protocol_example_many_dots_glibc", D::glibc, kS, "a.b.c.d.e.f", 0, true, "a.b.c.d.e.f.",
     std::string("\x01\x01\x00\x02s1\x00\x02s2\x00", 11)},
    {"protocol_flags_kept_q_added", D::musl, kS, "web", autopath::kFlagStopOnExists, true, "web.s1.",
     std::string("\x01\x05\x02s1\x00\x02s2\x00\x00", 11)},
    {"protocol_trailing_dot_no_option", D::glibc, kS, "web.", 0, false, "web.", ""},
    {"protocol_many_dots_musl_no_option", D::musl, kS, "a.b.c.d.e.f", 0, false, "a.b.c.d.e.f.", ""},
};

class AutopathRule : public testing::TestWithParam<QueryCase> {};

TEST_P(AutopathRule, Query) {
  const QueryCase& c = GetParam();
  Config conf = make_conf(c.dialect, c.conf);
  Plan p;
  build_plan(conf, Str{c.name.data(), c.name.size()}, p);
  dns::Name qname;
  autopath::QueryOption opt;
  EXPECT_EQ(autopath_query(conf, p, c.flags, qname, opt), c.sent);
  EXPECT_EQ(text_of(qname), c.qname);
  uint8_t buf[600];
  size_t n = autopath::encode_query(opt, buf, sizeof buf);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), n), c.payload);
}

INSTANTIATE_TEST_SUITE_P(Rules, AutopathRule, testing::ValuesIn(kQueries),
                         [](const testing::TestParamInfo<QueryCase>& i) { return std::string(i.param.rule); });

TEST(AutopathRule, more_than_64_suffixes_no_option) {
  std::string search = "search";
  for (int i = 0; i < 64; i++) search += " d" + std::to_string(i);
  Config conf = make_conf(D::glibc, search + "\noptions ndots:5\n");
  Plan p;
  build_plan(conf, str("web"), p);
  ASSERT_EQ(p.suffix.count, 65u);
  dns::Name qname;
  autopath::QueryOption opt;
  EXPECT_FALSE(autopath_query(conf, p, 0, qname, opt));
  EXPECT_EQ(text_of(qname), "web.d0.");
  EXPECT_EQ(opt.count, 0u);
}

TEST(AutopathRule, invalid_name_no_query) {
  Config conf = make_conf(D::glibc, kS);
  Plan p;
  build_plan(conf, str("-x"), p);
  dns::Name qname;
  autopath::QueryOption opt;
  EXPECT_FALSE(autopath_query(conf, p, 0, qname, opt));
  EXPECT_FALSE(candidate_name(conf, p, 0, qname));
}

// The C API over the same plan.
const char kKubelet[] =
    "search default.svc.cluster.local svc.cluster.local cluster.local\n"
    "nameserver 10.96.0.10\noptions ndots:5\n";

std::string c_plan(int dialect, const char* conf, const char* name) {
  alignas(16) static char mem[16384];
  EXPECT_LE(rk8s_conf_size(), sizeof mem);
  rk8s_conf* c = rk8s_conf_parse(mem, sizeof mem, dialect, conf, strlen(conf), nullptr, nullptr, nullptr);
  EXPECT_NE(c, nullptr);
  char out[2048];
  size_t n = rk8s_plan(c, name, out, sizeof out);
  EXPECT_EQ(n, strlen(out));
  return out;
}

TEST(CApi, plan_lists_candidates_and_suffixes) {
  EXPECT_EQ(c_plan(RK8S_DIALECT_GLIBC, kKubelet, "web"),
            "web.default.svc.cluster.local.\nweb.svc.cluster.local.\nweb.cluster.local.\nweb.\n"
            "autopath: default.svc.cluster.local. svc.cluster.local. cluster.local. .\n");
}

TEST(CApi, plan_one_candidate_no_autopath) {
  EXPECT_EQ(c_plan(RK8S_DIALECT_MUSL, kKubelet, "www.example.com."), "www.example.com.\nautopath: none\n");
}

TEST(CApi, plan_autopath_off) {
  std::string conf = std::string(kKubelet) + "options k8s-autopath:off\n";
  EXPECT_EQ(c_plan(RK8S_DIALECT_GLIBC, conf.c_str(), "a.b.c.d.e.f"),
            "a.b.c.d.e.f.\na.b.c.d.e.f.default.svc.cluster.local.\na.b.c.d.e.f.svc.cluster.local.\n"
            "a.b.c.d.e.f.cluster.local.\nautopath: off\n");
}

TEST(CApi, plan_invalid_name) {
  EXPECT_EQ(c_plan(RK8S_DIALECT_GLIBC, kKubelet, "bad name"), "invalid: EAI_NONAME\n");
}

TEST(CApi, plan_truncates_like_snprintf) {
  alignas(16) static char mem[16384];
  rk8s_conf* c = rk8s_conf_parse(mem, sizeof mem, RK8S_DIALECT_GLIBC, kKubelet, strlen(kKubelet), nullptr,
                                 nullptr, nullptr);
  char out[8];
  size_t n = rk8s_plan(c, "web", out, sizeof out);
  EXPECT_GT(n, sizeof out);
  EXPECT_STREQ(out, "web.def");
}

TEST(CApi, conf_accessors) {
  alignas(16) static char mem[16384];
  const char text[] = "nameserver 10.96.0.10\nnameserver fe80::1%2\nsearch a b\noptions ndots:3 timeout:2 attempts:4 "
                      "k8s-autopath-code:65100\n";
  rk8s_conf* c = rk8s_conf_parse(mem, sizeof mem, RK8S_DIALECT_MUSL, text, strlen(text), nullptr, nullptr, nullptr);
  ASSERT_NE(c, nullptr);
  char buf[64];
  EXPECT_EQ(rk8s_conf_dialect(c), RK8S_DIALECT_MUSL);
  EXPECT_EQ(rk8s_conf_ndots(c), 3u);
  EXPECT_EQ(rk8s_conf_timeout(c), 2u);
  EXPECT_EQ(rk8s_conf_attempts(c), 4u);
  EXPECT_EQ(rk8s_conf_autopath(c), 1);
  EXPECT_EQ(rk8s_conf_autopath_code(c), 65100u);
  EXPECT_EQ(rk8s_conf_complete(c), 1);
  EXPECT_EQ(rk8s_conf_warnings(c), 0u);
  ASSERT_EQ(rk8s_conf_nameserver_count(c), 2u);
  rk8s_conf_nameserver(c, 1, buf, sizeof buf);
  EXPECT_STREQ(buf, "fe80::1%2");
  ASSERT_EQ(rk8s_conf_search_count(c), 2u);
  rk8s_conf_search(c, 1, buf, sizeof buf);
  EXPECT_STREQ(buf, "b");
  EXPECT_EQ(rk8s_conf_search(c, 2, buf, sizeof buf), 0u);
}

TEST(CApi, plan_piece_by_piece) {
  alignas(16) static char mem[16384];
  const char text[] = "search ns.svc.cluster.local svc.cluster.local\noptions ndots:5 rotate no-aaaa\n";
  rk8s_conf* c = rk8s_conf_parse(mem, sizeof mem, RK8S_DIALECT_GLIBC, text, strlen(text), nullptr,
                                 nullptr, nullptr);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(rk8s_conf_options(c), unsigned(RK8S_OPT_ROTATE | RK8S_OPT_NO_AAAA));
  EXPECT_EQ(rk8s_plan_error(c, "web"), 0);
  EXPECT_EQ(rk8s_plan_error(c, "bad name"), EAI_NONAME);
  ASSERT_EQ(rk8s_plan_candidate_count(c, "web"), 3u);
  char buf[128];
  rk8s_plan_candidate(c, "web", 1, buf, sizeof buf);
  EXPECT_STREQ(buf, "web.svc.cluster.local.");
  EXPECT_EQ(rk8s_plan_candidate(c, "web", 3, buf, sizeof buf), 0u);
  rk8s_autopath_suffixes(c, "web", buf, sizeof buf);
  EXPECT_STREQ(buf, "ns.svc.cluster.local. svc.cluster.local. .");
  EXPECT_EQ(rk8s_autopath_suffixes(c, "web.", buf, sizeof buf), 0u);
  // no-aaaa: glibc asks A alone, so nothing is paired.
  EXPECT_EQ(rk8s_autopath_flags(c, AF_UNSPEC),
            unsigned(RK8S_AUTOPATH_Q | RK8S_AUTOPATH_STOP_ON_EXISTS | RK8S_AUTOPATH_PAST_NODATA));
}

TEST(CApi, conf_parse_refuses_small_or_misaligned_memory) {
  alignas(16) static char mem[16384];
  EXPECT_EQ(rk8s_conf_parse(mem, rk8s_conf_size() - 1, 0, "", 0, nullptr, nullptr, nullptr), nullptr);
  EXPECT_EQ(rk8s_conf_parse(mem + 1, sizeof mem - 1, 0, "", 0, nullptr, nullptr, nullptr), nullptr);
  EXPECT_EQ(rk8s_conf_parse(mem, sizeof mem, 7, "", 0, nullptr, nullptr, nullptr), nullptr);
}

}  // namespace
}  // namespace rk8s
