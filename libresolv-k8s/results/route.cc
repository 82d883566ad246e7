// SPDX-License-Identifier: Apache-2.0
// Where the kernel would send a packet from: a connected UDP socket, no
// packet sent. A socket used before is disconnected first: a connected
// socket keeps its source address, and the next destination may route
// from another.
#include "results/route.h"

#include <errno.h>
#include <netinet/in.h>
#include <unistd.h>

namespace rk8s {

bool open_probe(RouteProbe& probe, int family) {
  close_probe(probe);
  probe.fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
  probe.family = family;
  probe.used = false;
  return probe.fd >= 0;
}

// glibc's try_connect: an IPv6 socket that takes no IPv4 destination
// (IPv6-only) is replaced by an IPv4 one.
static bool connect_probe(RouteProbe& probe, const IpAddr& dst) {
  sockaddr_in6 sa;
  socklen_t len = ip_to_sockaddr(dst, 0, &sa);
  if (connect(probe.fd, reinterpret_cast<sockaddr*>(&sa), len) == 0) return true;
  return errno == EAFNOSUPPORT && probe.family == AF_INET6 && dst.family == AF_INET &&
         open_probe(probe, AF_INET) &&
         connect(probe.fd, reinterpret_cast<sockaddr*>(&sa), len) == 0;
}

int route_source(RouteProbe& probe, const IpAddr& dst, IpAddr* src) {
  if (probe.fd < 0 || (probe.family == AF_INET && dst.family == AF_INET6)) {
    if (!open_probe(probe, dst.family)) return -1;
  } else if (probe.used) {
    sockaddr unspec{};
    unspec.sa_family = AF_UNSPEC;
    connect(probe.fd, &unspec, sizeof unspec);
  }
  probe.used = true;
  if (!connect_probe(probe, dst)) return -1;
  sockaddr_in6 sa;
  socklen_t len = sizeof sa;
  if (getsockname(probe.fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) return 0;
  *src = ip_from_sockaddr(reinterpret_cast<sockaddr*>(&sa));
  // An IPv4 destination through an IPv6 socket: the source comes back mapped.
  if (dst.family == AF_INET && is_v4_mapped(*src)) {
    IpAddr v4{AF_INET};
    memcpy(v4.addr, src->addr + 12, 4);
    *src = v4;
  }
  return 1;
}

void close_probe(RouteProbe& probe) {
  if (probe.fd >= 0) close(probe.fd);
  probe.fd = -1;
}

}  // namespace rk8s
