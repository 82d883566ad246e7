// SPDX-License-Identifier: Apache-2.0
// The source address the kernel would pick for a destination, as both
// libcs' sorts learn it: by connecting a UDP socket (no packet is sent).
#pragma once

#include "util/ip.h"

namespace rk8s {

// Connects a UDP socket to dst: 1 with *src set, 0 reachable but no
// source, -1 unreachable.
int route_source(const IpAddr& dst, IpAddr* src);

}  // namespace rk8s
