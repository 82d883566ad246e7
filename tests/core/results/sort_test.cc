// SPDX-License-Identifier: Apache-2.0
#include "results/sort_glibc.h"
#include "results/sort_musl.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <string>

namespace {

rk8s::IpAddr addr(const char* text) {
  rk8s::IpAddr a;
  if (inet_pton(AF_INET, text, a.addr) == 1) a.family = AF_INET;
  else if (inet_pton(AF_INET6, text, a.addr) == 1) a.family = AF_INET6;
  return a;
}

rk8s::SortDest dest(const char* dst, const char* src) {
  rk8s::SortDest d;
  d.dst = addr(dst);
  if (src) {
    d.got_src = true;
    d.src = addr(src);
  }
  return d;
}

struct CompareCase {
  const char* rule;
  rk8s::SortDest a, b;
  int want;  // <0: a first
};

TEST(GlibcCompare, Rules) {
  rk8s::GaiConf conf;
  rk8s::gai_conf_defaults(conf);
  rk8s::SortDest deprecated = dest("2001:db8::1", "2001:db8::2");
  deprecated.deprecated = true;
  rk8s::SortDest tunnel = dest("2001:db8::1", "2001:db8::2");
  tunnel.ifindex = 7;
  tunnel.native = false;
  rk8s::SortDest native = dest("2001:db8::3", "2001:db8::4");
  native.ifindex = 2;
  const CompareCase cases[] = {
      {"rule1_reachable_first", dest("192.0.2.1", nullptr), dest("192.0.2.2", "10.0.0.1"), 1},
      {"rule2_matching_scope", dest("fe80::1", "2001:db8::9"), dest("2001:db8::1", "2001:db8::9"), 1},
      {"rule3_avoid_deprecated", deprecated, dest("2001:db8::5", "2001:db8::6"), 1},
      {"rule5_matching_label", dest("2002::1", "2001:db8::9"), dest("2001:db8::1", "2001:db8::9"), 1},
      {"rule6_precedence_v6_over_v4", dest("10.0.0.1", nullptr), dest("2001:db8::1", nullptr), 1},
      {"rule6_loopback_highest", dest("::1", nullptr), dest("2001:db8::1", nullptr), -1},
      {"rule7_native_over_tunnel", tunnel, native, 1},
      {"rule8_smaller_scope", dest("fe80::1", nullptr), dest("fe80::2", nullptr), -1},
      {"rule8_v4_linklocal_scope_2", dest("192.0.2.1", nullptr), dest("169.254.1.1", nullptr), 1},
      {"rule9_longest_prefix_v6", dest("2001:db8::1", "2001:db8::2"),
       dest("2001:db9::1", "2001:db8::2"), -1},
      // Without interface data glibc's IPv4 netmask is all ones: only an
      // exact source match scores.
      {"rule9_v4_no_prefixlen_exact_only", dest("10.0.0.2", "10.0.0.1"),
       dest("10.0.0.1", "10.0.0.1"), 1},
      {"rule10_keep_order", dest("192.0.2.1", nullptr), dest("192.0.2.2", nullptr), -1},
  };
  for (const CompareCase& c : cases) {
    rk8s::SortDest d[2] = {c.a, c.b};
    int got = rk8s::glibc_compare(conf, d, 0, 1);
    EXPECT_EQ(got < 0 ? -1 : 1, c.want) << c.rule;
    EXPECT_EQ(rk8s::glibc_compare(conf, d, 1, 0) < 0 ? -1 : 1, -c.want) << c.rule << " swapped";
  }
}

TEST(GlibcCompare, GaiConfPrecedencePrefersIpv4) {
  rk8s::GaiConf conf;
  const std::string text = "precedence ::ffff:0:0/96 100\n";
  rk8s::parse_gai_conf(text.data(), text.size(), conf);
  rk8s::SortDest d[2] = {dest("2001:db8::1", nullptr), dest("192.0.2.1", nullptr)};
  size_t order[2];
  rk8s::glibc_sort(conf, d, 2, order);
  EXPECT_EQ(order[0], 1u);
  EXPECT_EQ(order[1], 0u);
}

struct GaiConfCase {
  const char* rule;
  const char* text;
  const char* addr;
  int label, precedence;
};

int lookup(const rk8s::FixedVec<rk8s::GaiPrefix, rk8s::kMaxGaiRules + 1>& t, const char* text) {
  rk8s::IpAddr a = addr(text);
  uint8_t v6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (a.family == AF_INET) memcpy(v6 + 12, a.addr, 4);
  else memcpy(v6, a.addr, 16);
  for (const rk8s::GaiPrefix& r : t) {
    size_t whole = r.bits / 8, rest = r.bits % 8;
    uint8_t mask = uint8_t(0xff00 >> rest);
    if (memcmp(r.prefix, v6, whole) == 0 && (rest == 0 || (r.prefix[whole] & mask) == (v6[whole] & mask)))
      return r.val;
  }
  return -1;
}

TEST(GaiConf, Rules) {
  const GaiConfCase cases[] = {
      {"defaults", "", "2002::1", 2, 30},
      {"file_table_replaces_default", "label 2001:db8::/32 9\n", "2002::1", 1, 30},
      {"catch_all_appended", "precedence ::1/128 7\n", "2001:db8::1", 1, 40},
      {"most_specific_first", "label ::/0 3\nlabel 2001:db8::/32 9\n", "2001:db8::1", 9, 40},
      {"comment_cuts_line", "label 2001:db8::/32 9 # x\n#label ::/0 4\n", "10.0.0.1", 1, 10},
      {"bad_bits_skipped", "label 2001:db8::/129 9\nlabel 2001:db8::/32x 9\n", "2001:db8::1", 1, 40},
      {"val_over_int_max_skipped", "precedence ::/0 2147483648\n", "2001:db8::1", 1, 40},
      {"empty_value_is_zero", "precedence 2001:db8::/32\n", "2001:db8::1", 1, 0},
      {"ipv4_prefix_is_mapped", "precedence ::ffff:0:0/96 100\n", "10.0.0.1", 4, 100},
  };
  for (const GaiConfCase& c : cases) {
    rk8s::GaiConf conf;
    rk8s::parse_gai_conf(c.text, strlen(c.text), conf);
    EXPECT_EQ(lookup(conf.labels, c.addr), c.label) << c.rule;
    EXPECT_EQ(lookup(conf.precedence, c.addr), c.precedence) << c.rule;
  }
}

TEST(GaiConf, ScopeAndReload) {
  const std::string text = "scopev4 10.0.0.0/8 5\nscopev4 ::ffff:10.1.0.0/112 6\nreload yes\n";
  rk8s::GaiConf conf;
  rk8s::parse_gai_conf(text.data(), text.size(), conf);
  ASSERT_EQ(conf.scopes.count, 3u);
  EXPECT_EQ(conf.scopes[0].scope, 6);   // /16 before /8
  EXPECT_EQ(conf.scopes[1].scope, 5);
  EXPECT_EQ(conf.scopes[2].scope, 14);  // catch-all added
  EXPECT_TRUE(conf.reload);
  // A scope rule changes rule 8: 10.1.x is scope 6, 192.0.2.x stays 14.
  rk8s::SortDest d[2] = {dest("192.0.2.1", nullptr), dest("10.1.0.1", nullptr)};
  EXPECT_GT(rk8s::glibc_compare(conf, d, 0, 1), 0);
}

TEST(MuslSortKey, Rules) {
  rk8s::IpAddr v4 = addr("192.0.2.1"), v6 = addr("2001:db8::1"), lo6 = addr("::1");
  rk8s::IpAddr src6 = addr("2001:db8::2");
  // Usable first, then precedence (global IPv6 40 > IPv4 35, ::1 50), then source matches, then order.
  EXPECT_GT(rk8s::musl_sort_key(v4, nullptr, true, 1), rk8s::musl_sort_key(v6, nullptr, false, 0));
  EXPECT_GT(rk8s::musl_sort_key(v6, nullptr, false, 1), rk8s::musl_sort_key(v4, nullptr, false, 0));
  EXPECT_GT(rk8s::musl_sort_key(lo6, nullptr, false, 1), rk8s::musl_sort_key(v6, nullptr, false, 0));
  EXPECT_GT(rk8s::musl_sort_key(v6, &src6, true, 1), rk8s::musl_sort_key(v6, nullptr, true, 0));
  EXPECT_GT(rk8s::musl_sort_key(v4, nullptr, false, 0), rk8s::musl_sort_key(v4, nullptr, false, 1));
}

}  // namespace
