// SPDX-License-Identifier: Apache-2.0
// Where the kernel would send a packet from: a connected UDP socket, no
// packet sent. The socket is kept for the next probe of its family
// (util/kept_sockets.h): opening one (an inode, a file) costs more than the
// probe itself. It is disconnected first: a connected socket keeps its
// source address, and the next destination may route from another.
#include "results/route.h"

#include <unistd.h>

#include "util/kept_sockets.h"

namespace rk8s {

int route_source(const IpAddr& dst, IpAddr* src) {
  const IpAddr key{dst.family};
  KeptSocket s;
  bool taken = take_kept(KeptSocket::probe, key, s);
  if (!taken) {
    s = KeptSocket{KeptSocket::probe, key, socket(dst.family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP)};
    if (s.fd < 0) return -1;
  }
  sockaddr_in6 sa;
  socklen_t len = ip_to_sockaddr(dst, 0, &sa);
  int r = -1;
  if (connect(s.fd, reinterpret_cast<sockaddr*>(&sa), len) == 0) {
    len = sizeof sa;
    r = 0;
    if (getsockname(s.fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0) {
      *src = ip_from_sockaddr(reinterpret_cast<sockaddr*>(&sa));
      r = 1;
    }
  }
  sockaddr unspec{};
  unspec.sa_family = AF_UNSPEC;
  // Without its identity, a socket could not be checked later: never kept.
  bool kept = connect(s.fd, &unspec, sizeof unspec) == 0 && (taken || identify(s)) && keep(s);
  if (!kept) close(s.fd);
  return r;
}

}  // namespace rk8s
