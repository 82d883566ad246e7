// SPDX-License-Identifier: Apache-2.0
// The address module: the libcs' literal forms, sockaddrs, text.
#include "util/ip.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <net/if.h>

#include <string>

namespace rk8s {
namespace {

struct AtonCase {
  const char* text;
  const char* want;  // nullptr: rejected
};

TEST(ParseInetAton, Forms) {
  const AtonCase cases[] = {
      {"127.0.0.1", "127.0.0.1"}, {"127.1", "127.0.0.1"},     {"0x7f.1", "127.0.0.1"},
      {"017.0.0.1", "15.0.0.1"},  {"2130706433", "127.0.0.1"}, {"10.65535", "10.0.255.255"},
      {"1.2.3.4.5", nullptr},     {"1.2.3.", nullptr},        {"08.0.0.1", nullptr},
      {"1.256.0.0", nullptr},     {"10.16777216", nullptr},   {"127.0.0.1 ", nullptr},
      {"", nullptr},              {"-1.0.0.0", nullptr},      {"4294967296", nullptr},
  };
  for (const AtonCase& c : cases) {
    uint8_t got[4];
    bool ok = parse_inet_aton(str(c.text), got);
    EXPECT_EQ(ok, c.want != nullptr) << c.text;
    if (ok && c.want) {
      char text[16];
      inet_ntop(AF_INET, got, text, sizeof text);
      EXPECT_STREQ(text, c.want) << c.text;
    }
  }
}

// "ok ADDRESS", "bad_scope ADDRESS" or "none".
std::string literal(Dialect d, const std::string& text) {
  IpAddr a;
  Literal l = parse_ip_literal(d, Str{text.data(), text.size()}, a);
  if (l == Literal::none) return "none";
  char buf[64];
  ip_to_text(a, buf, sizeof buf);
  return std::string(l == Literal::ok ? "ok " : "bad_scope ") + buf;
}

TEST(ParseIpLiteral, BothDialects) {
  std::string lo = std::to_string(if_nametoindex("lo"));
  for (Dialect d : {Dialect::glibc, Dialect::musl}) {
    EXPECT_EQ(literal(d, "10.1"), "ok 10.0.0.1");
    EXPECT_EQ(literal(d, "fd00::1"), "ok fd00::1");
    EXPECT_EQ(literal(d, "fe80::1%7"), "ok fe80::1%7");
    EXPECT_EQ(literal(d, "fe80::1%lo"), "ok fe80::1%" + lo);
    EXPECT_EQ(literal(d, "fe80::1%nosuchif0"), "bad_scope fe80::1");
    EXPECT_EQ(literal(d, "fe80::1%"), "bad_scope fe80::1");
    EXPECT_EQ(literal(d, "::2%4294967296"), "bad_scope ::2");
    EXPECT_EQ(literal(d, "web"), "none");
    EXPECT_EQ(literal(d, "%lo"), "none");
    EXPECT_EQ(literal(d, "fd00::1 "), "none");
  }
  // A scope that starts 64 bytes in is not split off: no address.
  EXPECT_EQ(literal(Dialect::musl, std::string(62, '0') + "::%1"), "none");
}

TEST(ParseIpLiteral, ScopeRulesDiffer) {
  // glibc: names only for link-local (and multicast node-local); musl: a
  // number for any address, a name for link-local only.
  EXPECT_EQ(literal(Dialect::glibc, "::1%lo"), "bad_scope ::1");
  EXPECT_EQ(literal(Dialect::musl, "::1%lo"), "bad_scope ::1");
  EXPECT_EQ(literal(Dialect::glibc, "::1%5"), "ok ::1%5");
  EXPECT_EQ(literal(Dialect::musl, "::1%5"), "ok ::1%5");
  std::string lo = std::to_string(if_nametoindex("lo"));
  EXPECT_EQ(literal(Dialect::glibc, "ff01::1%lo"), "ok ff01::1%" + lo);
  EXPECT_EQ(literal(Dialect::musl, "ff01::1%lo"), "bad_scope ff01::1");
}

TEST(V4Mapped, RoundTrip) {
  IpAddr v4{AF_INET, {192, 0, 2, 7}};
  IpAddr m = v4_mapped(v4);
  EXPECT_TRUE(is_v4_mapped(m));
  EXPECT_FALSE(is_v4_mapped(v4));
  char buf[64];
  ip_to_text(m, buf, sizeof buf);
  EXPECT_STREQ(buf, "::ffff:192.0.2.7");
}

TEST(Sockaddr, RoundTrip) {
  for (const char* text : {"192.0.2.7", "fe80::1%3"}) {
    IpAddr a;
    ASSERT_EQ(parse_ip_literal(Dialect::musl, str(text), a), Literal::ok);
    sockaddr_in6 sa;
    socklen_t len = ip_to_sockaddr(a, 53, &sa);
    EXPECT_EQ(len, a.family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6));
    EXPECT_EQ(ntohs(reinterpret_cast<sockaddr_in*>(&sa)->sin_port), 53);
    EXPECT_TRUE(same_ip(ip_from_sockaddr(reinterpret_cast<sockaddr*>(&sa)), a)) << text;
  }
}

TEST(Ipv6Scope, Rfc4291) {
  auto scope = [](const char* text) {
    uint8_t a[16];
    EXPECT_EQ(inet_pton(AF_INET6, text, a), 1);
    return ipv6_scope(a);
  };
  EXPECT_EQ(scope("ff05::1"), 5);
  EXPECT_EQ(scope("fe80::1"), 2);
  EXPECT_EQ(scope("::1"), 2);
  EXPECT_EQ(scope("fec0::1"), 5);
  EXPECT_EQ(scope("2001:db8::1"), 14);
}

}  // namespace
}  // namespace rk8s
