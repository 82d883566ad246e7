// SPDX-License-Identifier: Apache-2.0
// AI_ADDRCONFIG: which families the host has, as each libc decides it.
#include "results/addrconfig.h"

#include <errno.h>
#include <ifaddrs.h>
#include <unistd.h>

namespace rk8s {
namespace {

// glibc's __check_pf: any address other than 127.0.0.1 / ::1.
void glibc_seen_families(bool& v4, bool& v6) {
  struct ifaddrs* list;
  if (getifaddrs(&list) != 0) {
    v4 = v6 = true;
    return;
  }
  v4 = v6 = false;
  for (struct ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr) continue;
    if (i->ifa_addr->sa_family == AF_INET) {
      auto* sin = reinterpret_cast<sockaddr_in*>(i->ifa_addr);
      v4 |= sin->sin_addr.s_addr != htonl(INADDR_LOOPBACK);
    } else if (i->ifa_addr->sa_family == AF_INET6) {
      auto* sin6 = reinterpret_cast<sockaddr_in6*>(i->ifa_addr);
      v6 |= !IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
    }
  }
  freeifaddrs(list);
}

// musl: whether a UDP socket connects to the family's loopback; -1 (errno
// set) when that failed for another reason than the family being absent.
int musl_has_family(int family) {
  IpAddr lo;
  lo.family = uint8_t(family);
  if (family == AF_INET) lo.addr[0] = 127, lo.addr[3] = 1;
  else lo.addr[15] = 1;
  sockaddr_in6 sa;
  socklen_t len = ip_to_sockaddr(lo, 65535, &sa);
  int s = socket(family, SOCK_CLOEXEC | SOCK_DGRAM, IPPROTO_UDP);
  if (s >= 0) {
    int r = connect(s, reinterpret_cast<sockaddr*>(&sa), len);
    int saved = errno;
    close(s);
    errno = saved;
    if (r == 0) return 1;
  }
  switch (errno) {
    case EADDRNOTAVAIL: case EAFNOSUPPORT: case EHOSTUNREACH: case ENETDOWN: case ENETUNREACH:
      return 0;
    default:
      return -1;
  }
}

}  // namespace

int glibc_addrconfig(GaiRequest& req) {
  bool v4, v6;
  glibc_seen_families(v4, v6);
  if (req.family == AF_UNSPEC) {
    if (v4 != v6) req.family = v4 ? AF_INET : AF_INET6;
    return 0;
  }
  return (req.family == AF_INET && !v4) || (req.family == AF_INET6 && !v6) ? EAI_NONAME : 0;
}

int musl_addrconfig(GaiRequest& req) {
  static constexpr int kFamilies[2] = {AF_INET, AF_INET6};
  for (int i = 0; i < 2; ++i) {
    if (req.family == kFamilies[1 - i]) continue;
    switch (musl_has_family(kFamilies[i])) {
      case 1: continue;
      case -1: return EAI_SYSTEM;
    }
    if (req.family == kFamilies[i]) {
      if (req.release < release(1, 2, 4)) return EAI_NONAME;
      req.no_family = true;  // 7d568410, 85050ac5
    }
    req.family = kFamilies[1 - i];
  }
  return 0;
}

}  // namespace rk8s
