// SPDX-License-Identifier: Apache-2.0
// What we write, read by independent parsers: glibc's and BIND's dig.
#include <arpa/nameser.h>
#include <dlfcn.h>
#include <resolv.h>

#include <vector>

#include "dns_test_util.h"

namespace rk8s::dns {
namespace {

using test::bytes;
using test::name;

// Captured from `dig @127.0.0.1 -p 5399 +noad +nocookie +bufsize=1232
// +ednsopt=65431:0101027331000273320000 web.s1.svc.cluster.local A`
// (dig 9.18.49, to a loopback listener).
const char* const kDigQuery =
    "0123 0100 0001 0000 0000 0001 03'web' 02's1' 03'svc' 07'cluster' 05'local' 00 0001 0001"
    "00 0029 04d0 00000000 000f ff97 000b 01 01 02's1' 00 02's2' 00 00";

TEST(BuildQuery, MatchesDigWithEdnsAndAnOption) {
  std::vector<uint8_t> value = bytes("01 01 02's1' 00 02's2' 00 00");
  const EdnsOption autopath{65431, Bytes{value.data(), value.size()}};
  uint8_t buf[512];
  size_t n = build_query({0x0123, name("web.s1.svc.cluster.local"), kTypeA, 1232, &autopath, 1},
                         buf, sizeof buf);
  EXPECT_EQ(std::vector<uint8_t>(buf, buf + n), bytes(kDigQuery));
}

TEST(BuildQuery, MatchesGlibcResMkqueryWithoutEdns) {
  ASSERT_EQ(res_init(), 0);
  _res.options = (_res.options | RES_RECURSE) & ~RES_TRUSTAD;
  uint8_t glibc[512], ours[512];
  int g = res_mkquery(ns_o_query, "www.Example.com", ns_c_in, ns_t_aaaa, nullptr, 0, nullptr, glibc,
                      sizeof glibc);
  ASSERT_GT(g, 0);
  size_t n = build_query({load16(glibc), name("www.Example.com"), kTypeAAAA}, ours, sizeof ours);
  EXPECT_EQ(std::vector<uint8_t>(ours, ours + n), std::vector<uint8_t>(glibc, glibc + g));
}

TEST(BuildQuery, ZeroWhenItDoesNotFit) {
  uint8_t buf[512];
  const Name qname = name("example.com");
  const Query q{1, qname, kTypeA, 1232};
  size_t whole = build_query(q, buf, sizeof buf);
  ASSERT_EQ(whole, 12u + 17 + 11);
  EXPECT_EQ(build_query(q, buf, whole - 1), 0u);
  EXPECT_EQ(build_query(q, buf, whole), whole);
}

// glibc's ns_initparse/ns_parserr live in libresolv, which the test binary
// does not link: load them.
struct LibResolv {
  void* handle = dlopen("libresolv.so.2", RTLD_NOW);
  decltype(&ns_initparse) initparse =
      handle ? reinterpret_cast<decltype(&ns_initparse)>(dlsym(handle, "ns_initparse")) : nullptr;
  decltype(&ns_parserr) parserr =
      handle ? reinterpret_cast<decltype(&ns_parserr)>(dlsym(handle, "ns_parserr")) : nullptr;
};

// test::kReply is what the Writer writes (writer_test.cc checks that).
TEST(WriterInterop, GlibcParsesOurReply) {
  LibResolv lib;
  ASSERT_TRUE(lib.initparse && lib.parserr);
  std::vector<uint8_t> m = bytes(test::kReply);
  ns_msg msg;
  ASSERT_EQ(lib.initparse(m.data(), int(m.size()), &msg), 0);
  const struct {
    ns_sect section;
    int index;
    const char* owner;
    int type;
    const char* rdata_name;
  } want[] = {
      {ns_s_qd, 0, "web.s1.svc.cluster.local", ns_t_a, nullptr},
      {ns_s_an, 0, "web.s1.svc.cluster.local", ns_t_cname, "web.s2.svc.cluster.local"},
      {ns_s_an, 1, "web.s2.svc.cluster.local", ns_t_a, nullptr},
      {ns_s_ns, 0, "cluster.local", ns_t_soa, "ns.cluster.local"},
      {ns_s_ar, 0, "web.s2.svc.cluster.local", ns_t_aaaa, nullptr},
      {ns_s_ar, 1, ".", ns_t_opt, nullptr},
  };
  EXPECT_EQ(ns_msg_count(msg, ns_s_an), 2);
  EXPECT_EQ(ns_msg_count(msg, ns_s_ns), 1);
  EXPECT_EQ(ns_msg_count(msg, ns_s_ar), 2);
  for (const auto& w : want) {
    ns_rr rr;
    ASSERT_EQ(lib.parserr(&msg, w.section, w.index, &rr), 0) << w.owner;
    EXPECT_STREQ(ns_rr_name(rr), w.owner);
    EXPECT_EQ(ns_rr_type(rr), w.type) << w.owner;
    if (w.rdata_name) {
      char target[NS_MAXDNAME];
      ASSERT_GT(dn_expand(m.data(), m.data() + m.size(), ns_rr_rdata(rr), target, sizeof target),
                0);
      EXPECT_STREQ(target, w.rdata_name);
    }
  }
}

}  // namespace
}  // namespace rk8s::dns
