// SPDX-License-Identifier: Apache-2.0
// The source address the kernel would pick for a destination, as both
// libcs' sorts learn it: by connecting a UDP socket (no packet is sent).
#pragma once

#include "util/ip.h"

namespace rk8s {

// The socket of one sort's probes: glibc's getaddrinfo probes every
// destination of a call on one socket, disconnected in between (opened
// again to go from IPv4 to IPv6), and closes it at the end of the call;
// musl opens and closes one per destination.
struct RouteProbe {
  int fd = -1;
  int family = 0;
  bool used = false;  // connected since it was opened: disconnect first
};

// Opens the probe's socket as `family` (closing the one it had); false
// when the socket cannot be opened.
bool open_probe(RouteProbe& probe, int family);
// Connects the probe's socket (opened as glibc opens it) to dst: 1 with
// *src set, 0 reachable but no source, -1 unreachable.
int route_source(RouteProbe& probe, const IpAddr& dst, IpAddr* src);
void close_probe(RouteProbe& probe);

}  // namespace rk8s
