// SPDX-License-Identifier: Apache-2.0
// Destination address order: glibc 2.36's rfc3484_sort with the gai.conf
// tables, and musl 1.2.3's RFC 6724 subset. Both learn the source address
// the kernel would pick by connecting a UDP socket (no packet is sent).
#pragma once

#include "files/gai_conf.h"
#include "util/ip.h"

namespace rk8s {

// One destination as glibc's comparison sees it.
struct SortDest {
  IpAddr dst;
  bool got_src = false;  // the destination is reachable
  IpAddr src;
  // From the interface address list; glibc has it only on hosts with a
  // non-loopback IPv6 address. Without it every index is the same.
  bool deprecated = false;
  bool home_address = false;
  uint8_t prefixlen = 0;
  uint32_t ifindex = 0xffffffffu;
  bool native = true;  // interface is not a tunnel
};

// sort_glibc.cc. <0 when d[i] goes first. Total: ties fall back to i < j.
int glibc_compare(const GaiConf& conf, const SortDest* d, size_t i, size_t j);
// order[0..n) = the sorted indices of d, by glibc's own merge sort (the
// comparison is not always transitive, so the algorithm matters).
void glibc_sort(const GaiConf& conf, const SortDest* d, size_t n, size_t* order);
// getaddrinfo's entries, address e / per_addr with service e % per_addr,
// sorted in `order` (glibc sorts the entries, not the addresses) with the
// current /etc/gai.conf and the kernel's source addresses. False when out
// of memory.
bool glibc_sort_entries(const IpAddr* addrs, size_t n, size_t per_addr, size_t* order);

// sort_musl.cc. musl's sort key for the destination at position i; src is
// the source address the kernel picked, nullptr when the destination is
// unreachable.
int musl_sort_key(const IpAddr& dst, const IpAddr* src, bool usable, size_t i);
// Sorts addrs[0..n) in place as musl does (only when n >= 2 and some
// address is IPv6; the caller checks).
void musl_sort(IpAddr* addrs, size_t n);

// route.cc. Connects a UDP socket to dst: 1 with *src set, 0 reachable but
// no source, -1 unreachable.
int route_source(const IpAddr& dst, IpAddr* src);

}  // namespace rk8s
