// SPDX-License-Identifier: Apache-2.0
// The hostent layouts: what each libc puts where, and ERANGE at every
// buffer size below the one that fits (at every alignment of the buffer).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netdb.h>

#include <string>
#include <vector>

#include "results/hostent_layout.h"

namespace rk8s {
namespace {

const IpAddr kAddrs[3] = {{AF_INET, {10, 0, 0, 1}}, {AF_INET, {10, 0, 0, 2}},
                          {AF_INET6, {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5}}};

// Entry i of a pointer list the builder may have put at any alignment, as
// the caller's buffer had it (glibc does the same).
char* entry(char** list, size_t i) {
  char* p;
  memcpy(&p, reinterpret_cast<const char*>(list) + i * sizeof p, sizeof p);
  return p;
}

std::string render(const hostent& h) {
  std::string s = std::string(h.h_name) + (h.h_addrtype == AF_INET6 ? " inet6" : " inet");
  for (size_t i = 0; char* a = entry(h.h_aliases, i); i++) s += " alias=" + std::string(a);
  for (size_t i = 0; char* a = entry(h.h_addr_list, i); i++) {
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(h.h_addrtype, a, buf, sizeof buf);
    s += " " + std::string(buf);
  }
  return s;
}

using Build = int (*)(const HostentParts&, hostent*, char*, size_t);

// The smallest size that fits at offset `skew`, after checking that every
// smaller one is ERANGE and that everything lies inside the buffer.
size_t fitting_size(Build build, const HostentParts& p, size_t skew, std::string& rendered) {
  for (size_t len = 0; len < 4096; len++) {
    std::vector<char> mem(len + skew + 8, '\x55');
    char* buf = mem.data() + skew;
    hostent h = {};
    if (build(p, &h, buf, len) == ERANGE) continue;
    rendered = render(h);
    auto inside = [&](const void* q) { return q >= buf && q < buf + len; };
    EXPECT_TRUE(inside(h.h_name) && inside(h.h_aliases) && inside(h.h_addr_list));
    for (size_t i = 0; char* a = entry(h.h_addr_list, i); i++) EXPECT_TRUE(inside(a));
    for (size_t i = 0; char* a = entry(h.h_aliases, i); i++) EXPECT_TRUE(inside(a));
    EXPECT_EQ(mem[skew + len], '\x55') << "wrote past the end";
    return len;
  }
  return 0;
}

TEST(Hostent, GlibcDnsLayout) {
  // getanswer_r's order: the question, the CNAME targets; the last is h_name.
  const char* names[] = {"payments.shop.svc.cluster.local", "payments.example.com"};
  HostentParts p{AF_INET, names, 2, kAddrs, 2};
  std::string got;
  // Names 53 bytes, pad to 56, 2 addresses (8), list of 3 and 2 pointers.
  EXPECT_EQ(fitting_size(glibc_hostent, p, 0, got), 53u + 3 + 8 + 24 + 16);
  EXPECT_EQ(got, "payments.example.com inet alias=payments.shop.svc.cluster.local 10.0.0.1 10.0.0.2");
  for (size_t skew = 1; skew < 8; skew++) {
    size_t n = fitting_size(glibc_hostent, p, skew, got);
    EXPECT_GE(n, 53u + 8 + 24 + 16);
    EXPECT_LE(n, 53u + 3 + 8 + 7 + 24 + 16);
  }
}

TEST(Hostent, GlibcSingleNameInet6) {
  const char* names[] = {"web.shop.svc.cluster.local"};
  HostentParts p{AF_INET6, names, 1, kAddrs + 2, 1};
  std::string got;
  EXPECT_EQ(fitting_size(glibc_hostent, p, 0, got), 27u + 1 + 16 + 4 + 16 + 8);
  EXPECT_EQ(got, "web.shop.svc.cluster.local inet6 fd00::5");
}

int numeric(const HostentParts& p, hostent* h, char* buf, size_t len) {
  return glibc_numeric_hostent(p.family, p.addrs[0].addr, p.names[0], h, buf, len);
}

TEST(Hostent, GlibcNumericIsUnaligned) {
  const char* names[] = {"10.0.0.1"};
  HostentParts p{AF_INET, names, 1, kAddrs, 1};
  for (size_t skew = 0; skew < 8; skew++) {
    std::string got;
    EXPECT_EQ(fitting_size(numeric, p, skew, got), 16u + 24 + 9);
    EXPECT_EQ(got, "10.0.0.1 inet 10.0.0.1");
  }
}

TEST(Hostent, MuslAliases) {
  std::string got;
  const char* differ[] = {"web.shop.svc.cluster.local", "web"};
  HostentParts p{AF_INET, differ, 2, kAddrs, 2};
  // 4 pointers, 3 x (pointer + address), both names, the alignment.
  EXPECT_EQ(fitting_size(musl_hostent, p, 0, got), 32u + 3 * 12 + 27 + 4);
  EXPECT_EQ(got, "web.shop.svc.cluster.local inet alias=web.shop.svc.cluster.local alias=web "
                 "10.0.0.1 10.0.0.2");
  for (size_t skew = 1; skew < 8; skew++)
    EXPECT_EQ(fitting_size(musl_hostent, p, skew, got), 32u + 3 * 12 + 27 + 4 + 8 - skew);

  const char* same[] = {"db.example", "db.example"};
  HostentParts q{AF_INET6, same, 2, kAddrs + 2, 1};
  // The name counts in the size even when it is not stored again.
  EXPECT_EQ(fitting_size(musl_hostent, q, 0, got), 32u + 2 * 24 + 11 + 11);
  EXPECT_EQ(got, "db.example inet6 alias=db.example fd00::5");
}

}  // namespace
}  // namespace rk8s
