// SPDX-License-Identifier: Apache-2.0
// Destination address order as musl 1.2.3 sorts it: its RFC 6724 subset,
// with the source address the kernel would pick (route.h).
#pragma once

#include "util/ip.h"

namespace rk8s {

// musl's sort key for the destination at position i; src is the source
// address the kernel picked, nullptr when the destination is unreachable.
int musl_sort_key(const IpAddr& dst, const IpAddr* src, bool usable, size_t i);
// Sorts addrs[0..n) in place as musl does (only when n >= 2 and some
// address is IPv6; the caller checks).
void musl_sort(IpAddr* addrs, size_t n);

}  // namespace rk8s
