// SPDX-License-Identifier: Apache-2.0
// Destination address order as glibc 2.36 sorts it: rfc3484_sort with the
// gai.conf tables, and the source address the kernel would pick (route.h).
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

// <0 when d[i] goes first. Total: ties fall back to i < j.
int glibc_compare(const GaiConf& conf, const SortDest* d, size_t i, size_t j);
// order[0..n) = the sorted indices of d, by glibc's own merge sort (the
// comparison is not always transitive, so the algorithm matters).
void glibc_sort(const GaiConf& conf, const SortDest* d, size_t n, size_t* order);
// getaddrinfo's entries, address e / per_addr with service e % per_addr,
// sorted in `order` (glibc sorts the entries, not the addresses) with the
// current /etc/gai.conf and the kernel's source addresses. False when out
// of memory.
bool glibc_sort_entries(const IpAddr* addrs, size_t n, size_t per_addr, size_t* order);

}  // namespace rk8s
