// SPDX-License-Identifier: Apache-2.0
// musl's RFC 6724 sort key, rule for rule.
#include "results/sort_musl.h"

#include "results/gai_steps.h"
#include "results/route.h"

namespace rk8s {
namespace {

// musl's policy table: prefix bytes compared in full, then one masked byte.
struct MuslPolicy {
  uint8_t addr[16];
  uint8_t len, mask, prec, label;
};
constexpr MuslPolicy kMuslPolicy[] = {
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 15, 0xff, 50, 0},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 11, 0xff, 35, 4},
    {{0x20, 2}, 1, 0xff, 30, 2},
    {{0x20, 1}, 3, 0xff, 5, 5},
    {{0xfc}, 0, 0xfe, 3, 13},
    {{}, 0, 0, 40, 1},
};

const MuslPolicy& musl_policy(const uint8_t* a) {
  for (const MuslPolicy& p : kMuslPolicy)
    if (memcmp(a, p.addr, p.len) == 0 && (a[p.len] & p.mask) == p.addr[p.len]) return p;
  return kMuslPolicy[5];  // unreachable: the last rule matches everything
}

int common_bits(const uint8_t* s, const uint8_t* d) {
  int i = 0;
  while (i < 128 && !((s[i / 8] ^ d[i / 8]) & (128 >> (i % 8)))) ++i;
  return i;
}

}  // namespace

int musl_sort_key(const IpAddr& dst, const IpAddr* src, bool usable, size_t i) {
  uint8_t d6[16];
  ip_as_v6(dst, d6);
  const MuslPolicy& policy = musl_policy(d6);
  int scope = ipv6_scope(d6);
  int key = 0;
  if (usable) key |= 0x40000000;
  int prefixlen = 0;
  if (src) {
    uint8_t s6[16];
    ip_as_v6(*src, s6);
    if (scope == ipv6_scope(s6)) key |= 0x20000000;
    if (policy.label == musl_policy(s6).label) key |= 0x10000000;
    prefixlen = common_bits(s6, d6);
  }
  return key | policy.prec << 20 | (15 - scope) << 16 | prefixlen << 8 | int(kMaxGaiAddrs - i);
}

void musl_sort(IpAddr* addrs, size_t n) {
  int keys[kMaxGaiAddrs];
  for (size_t i = 0; i < n; ++i) {
    IpAddr src;
    RouteProbe probe;
    int r = route_source(probe, addrs[i], &src);
    close_probe(probe);
    keys[i] = musl_sort_key(addrs[i], r == 1 ? &src : nullptr, r >= 0, i);
  }
  // Keys are distinct (the position is in them): any sort gives musl's order.
  for (size_t i = 1; i < n; ++i) {
    IpAddr a = addrs[i];
    int k = keys[i];
    size_t j = i;
    for (; j > 0 && keys[j - 1] < k; --j) {
      addrs[j] = addrs[j - 1];
      keys[j] = keys[j - 1];
    }
    addrs[j] = a;
    keys[j] = k;
  }
}

}  // namespace rk8s
