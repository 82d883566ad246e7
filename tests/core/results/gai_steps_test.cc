// SPDX-License-Identifier: Apache-2.0
#include "results/gai_steps.h"
#include "results/list.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

namespace {

using rk8s::Dialect;

struct StartCase {
  const char* rule;
  Dialect dialect;
  const char* node;
  const char* service;
  int family, socktype, protocol, flags;
  int want;  // 0 (results), rk8s::kGaiResolve or EAI_*
  int want_entries;
};

const StartCase kStart[] = {
    {"both_null_noname", Dialect::glibc, nullptr, nullptr, 0, 0, 0, 0, EAI_NONAME, 0},
    {"glibc_star_is_null", Dialect::glibc, "*", "*", 0, 0, 0, 0, EAI_NONAME, 0},
    {"musl_star_is_a_name", Dialect::musl, "*", "80", 0, 0, 0, 0, rk8s::kGaiResolve, 0},
    {"glibc_unknown_flag", Dialect::glibc, "h", "80", 0, 0, 0, 0x10000, EAI_BADFLAGS, 0},
    {"musl_idn_flag_is_bad", Dialect::musl, "h", "80", 0, 0, 0, 0x40, EAI_BADFLAGS, 0},
    {"glibc_idn_ascii_name_is_ours", Dialect::glibc, "h", "80", 0, 0, 0, 0x40, rk8s::kGaiResolve, 0},
    {"glibc_idn_non_ascii_goes_to_libc", Dialect::glibc, "h\xc3\xa9", "80", 0, 0, 0, 0x40,
     rk8s::kGaiLibc, 0},
    {"glibc_canonname_needs_node", Dialect::glibc, nullptr, "80", 0, 0, 0, AI_CANONNAME,
     EAI_BADFLAGS, 0},
    {"bad_family", Dialect::glibc, "h", "80", AF_UNIX, 0, 0, 0, EAI_FAMILY, 0},
    {"glibc_default_types_tcp_udp_raw", Dialect::glibc, "127.0.0.1", "80", 0, 0, 0, 0, 0, 3},
    {"musl_default_types_tcp_udp", Dialect::musl, "127.0.0.1", "80", 0, 0, 0, 0, 0, 2},
    {"glibc_raw_with_service", Dialect::glibc, "127.0.0.1", "80", 0, SOCK_RAW, 0, 0, EAI_SERVICE, 0},
    {"glibc_bad_socktype", Dialect::glibc, "127.0.0.1", "80", 0, 99, 0, 0, EAI_SOCKTYPE, 0},
    {"glibc_bad_protocol", Dialect::glibc, "127.0.0.1", "80", 0, 0, 99, 0, EAI_SERVICE, 0},
    {"glibc_stream_udp_mismatch", Dialect::glibc, "127.0.0.1", "80", 0, SOCK_STREAM, IPPROTO_UDP, 0,
     EAI_SOCKTYPE, 0},
    {"musl_stream_udp_mismatch", Dialect::musl, "127.0.0.1", "80", 0, SOCK_STREAM, IPPROTO_UDP, 0,
     EAI_SERVICE, 0},
    {"glibc_numericserv_name", Dialect::glibc, "127.0.0.1", "http", 0, 0, 0, AI_NUMERICSERV,
     EAI_NONAME, 0},
    {"musl_port_over_65535", Dialect::musl, "127.0.0.1", "65536", 0, 0, 0, 0, EAI_SERVICE, 0},
    {"glibc_port_wraps", Dialect::glibc, "127.0.0.1", "65536", 0, SOCK_STREAM, 0, 0, 0, 1},
    {"musl_empty_service", Dialect::musl, "127.0.0.1", "", 0, 0, 0, 0, EAI_SERVICE, 0},
    {"glibc_empty_service_is_none", Dialect::glibc, "127.0.0.1", "", 0, SOCK_STREAM, 0, 0, 0, 1},
    {"glibc_v4_for_inet6", Dialect::glibc, "127.0.0.1", "80", AF_INET6, SOCK_STREAM, 0, 0,
     EAI_ADDRFAMILY, 0},
    {"musl_v4_for_inet6", Dialect::musl, "127.0.0.1", "80", AF_INET6, SOCK_STREAM, 0, 0, EAI_NONAME, 0},
    {"v4mapped_numeric", Dialect::glibc, "127.0.0.1", "80", AF_INET6, SOCK_STREAM, 0, AI_V4MAPPED, 0, 1},
    {"glibc_mapped_v6_for_inet", Dialect::glibc, "::ffff:1.2.3.4", "80", AF_INET, SOCK_STREAM, 0, 0, 0, 1},
    {"glibc_bad_scope", Dialect::glibc, "fe80::1%nosuchif", "80", 0, SOCK_STREAM, 0, 0, EAI_NONAME, 0},
    {"numerichost_name", Dialect::musl, "example", "80", 0, 0, 0, AI_NUMERICHOST, EAI_NONAME, 0},
    {"musl_name_too_long", Dialect::musl,
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "80", 0, 0, 0, 0, EAI_NONAME, 0},
};

int count(const struct addrinfo* ai) {
  int n = 0;
  for (; ai; ai = ai->ai_next) ++n;
  return n;
}

TEST(GaiStart, Rules) {
  for (const StartCase& c : kStart) {
    struct addrinfo hints = {};
    hints.ai_family = c.family;
    hints.ai_socktype = c.socktype;
    hints.ai_protocol = c.protocol;
    hints.ai_flags = c.flags;
    struct addrinfo* res = nullptr;
    rk8s::GaiRequest plan;
    int rc = rk8s::gai_start(c.dialect, c.node, c.service, &hints, plan, &res);
    EXPECT_EQ(rc, c.want) << c.rule;
    EXPECT_EQ(count(res), c.want_entries) << c.rule;
    rk8s::gai_free(c.dialect, res);
  }
}

TEST(GaiStart, ResolvePlanFamilies) {
  struct addrinfo hints = {};
  hints.ai_family = AF_INET6;
  hints.ai_flags = AI_V4MAPPED;
  struct addrinfo* res = nullptr;
  rk8s::GaiRequest plan;
  ASSERT_EQ(rk8s::gai_start(Dialect::glibc, "web", "80", &hints, plan, &res), rk8s::kGaiResolve);
  EXPECT_TRUE(plan.want_aaaa);
  EXPECT_TRUE(plan.want_a);
  EXPECT_TRUE(plan.a_only_without_aaaa);
  hints.ai_flags = AI_V4MAPPED | AI_ALL;
  ASSERT_EQ(rk8s::gai_start(Dialect::glibc, "web", "80", &hints, plan, &res), rk8s::kGaiResolve);
  EXPECT_FALSE(plan.a_only_without_aaaa);
}

rk8s::IpAddr v4(uint8_t last) {
  rk8s::IpAddr a;
  a.family = AF_INET;
  a.addr[0] = 192, a.addr[1] = 0, a.addr[2] = 2, a.addr[3] = last;
  return a;
}

TEST(GaiFinish, GlibcLayoutCanonOnFirstOnly) {
  struct addrinfo hints = {};
  hints.ai_flags = AI_CANONNAME;
  hints.ai_family = AF_INET;
  struct addrinfo* res = nullptr;
  rk8s::GaiRequest plan;
  ASSERT_EQ(rk8s::gai_start(Dialect::glibc, "web", nullptr, &hints, plan, &res), rk8s::kGaiResolve);
  rk8s::IpAddr addrs[2] = {v4(1), v4(2)};
  ASSERT_EQ(rk8s::gai_finish(plan, addrs, 2, "web.example", &res), 0);
  ASSERT_EQ(count(res), 6);  // 2 addresses x tcp, udp, raw
  EXPECT_STREQ(res->ai_canonname, "web.example");
  EXPECT_EQ(res->ai_addr, reinterpret_cast<struct sockaddr*>(res + 1));
  for (struct addrinfo* ai = res->ai_next; ai; ai = ai->ai_next) EXPECT_EQ(ai->ai_canonname, nullptr);
  EXPECT_EQ(res->ai_flags, AI_CANONNAME);
  freeaddrinfo(res);  // glibc's own must free our layout (ASan would tell)
  rk8s::gai_free(Dialect::glibc, nullptr);
}

TEST(GaiFinish, MuslSharedCanonAndSublistFree) {
  struct addrinfo* res = nullptr;
  rk8s::GaiRequest plan;
  ASSERT_EQ(rk8s::gai_start(Dialect::musl, "web", "80", nullptr, plan, &res), rk8s::kGaiResolve);
  rk8s::IpAddr addrs[2] = {v4(1), v4(2)};
  ASSERT_EQ(rk8s::gai_finish(plan, addrs, 2, nullptr, &res), 0);
  ASSERT_EQ(count(res), 4);
  for (struct addrinfo* ai = res; ai; ai = ai->ai_next) EXPECT_EQ(ai->ai_canonname, res->ai_canonname);
  EXPECT_STREQ(res->ai_canonname, "web");  // musl names results even without AI_CANONNAME
  struct addrinfo* tail = res->ai_next->ai_next;
  res->ai_next->ai_next = nullptr;
  rk8s::gai_free(Dialect::musl, tail);  // the block stays: two entries still out
  EXPECT_EQ(res->ai_next->ai_family, AF_INET);
  rk8s::gai_free(Dialect::musl, res);
  rk8s::gai_free(Dialect::musl, nullptr);
}

TEST(GaiFinish, GlibcV4MappedDropsMappedAaaaWithoutAll) {
  struct addrinfo hints = {};
  hints.ai_family = AF_INET6;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_V4MAPPED;
  struct addrinfo* res = nullptr;
  rk8s::GaiRequest plan;
  ASSERT_EQ(rk8s::gai_start(Dialect::glibc, "web", nullptr, &hints, plan, &res), rk8s::kGaiResolve);
  rk8s::IpAddr mapped;
  mapped.family = AF_INET6;
  mapped.addr[10] = mapped.addr[11] = 0xff;
  EXPECT_EQ(rk8s::gai_finish(plan, &mapped, 1, nullptr, &res), EAI_NONAME);
  rk8s::IpAddr only_v4 = v4(1);
  ASSERT_EQ(rk8s::gai_finish(plan, &only_v4, 1, nullptr, &res), 0);
  EXPECT_EQ(res->ai_family, AF_INET6);
  rk8s::gai_free(Dialect::glibc, res);
}

}  // namespace
