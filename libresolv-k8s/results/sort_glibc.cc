// SPDX-License-Identifier: Apache-2.0
// glibc's rfc3484_sort, rule for rule, and getaddrinfo's use of it.
#include "results/sort_glibc.h"

#include <stdlib.h>

#include "results/route.h"

namespace rk8s {
namespace {

int glibc_scope(const GaiConf& conf, const IpAddr& a) {
  if (a.family == AF_INET6) return ipv6_scope(a.addr);
  uint32_t v4;
  memcpy(&v4, a.addr, 4);
  for (const GaiScope& s : conf.scopes)
    if ((v4 & s.mask) == s.addr) return s.scope;
  return 14;  // unreachable: every table ends with a catch-all
}

template <size_t N>
int match_prefix(const FixedVec<GaiPrefix, N>& list, const IpAddr& a) {
  uint8_t v6[16];
  ip_as_v6(a, v6);
  for (const GaiPrefix& r : list) {
    size_t whole = r.bits / 8, rest = r.bits % 8;
    if (memcmp(r.prefix, v6, whole) != 0) continue;
    uint8_t mask = uint8_t(0xff00 >> rest);
    if (rest == 0 || (r.prefix[whole] & mask) == (v6[whole] & mask)) return r.val;
  }
  return 0;  // unreachable: every table ends with a catch-all
}

int leading_zeros(uint32_t x) { return x ? __builtin_clz(x) : 32; }

uint32_t word(const uint8_t* a, size_t i) { return load32(a + 4 * i); }

// Rule 9's common prefix lengths of (dst, src) for a and b, same family.
void common_prefixes(const SortDest& a, const SortDest& b, int& bits_a, int& bits_b) {
  bits_a = bits_b = 0;
  if (a.dst.family == AF_INET) {
    auto same_subnet_bits = [](const SortDest& x) {
      uint32_t dst = load32(x.dst.addr), src = load32(x.src.addr);
      // glibc shifts by 32 when it knows no prefix length; x86 takes that as 0.
      uint32_t mask = x.prefixlen ? 0xffffffffu << (32 - x.prefixlen) : 0xffffffffu;
      return (src & mask) == (dst & mask) ? leading_zeros(dst ^ src) : 0;
    };
    bits_a = same_subnet_bits(a);
    bits_b = same_subnet_bits(b);
    return;
  }
  for (size_t i = 0; i < 4; ++i) {
    uint32_t xa = word(a.dst.addr, i) ^ word(a.src.addr, i);
    uint32_t xb = word(b.dst.addr, i) ^ word(b.src.addr, i);
    if (xa || xb) {
      bits_a = leading_zeros(xa);
      bits_b = leading_zeros(xb);
      return;
    }
  }
}

// -1 when the rule prefers a, 1 when b, 0 when it cannot tell.
int prefer(bool a, bool b) { return a == b ? 0 : a ? -1 : 1; }

}  // namespace

int glibc_compare(const GaiConf& conf, const SortDest* d, size_t i, size_t j) {
  const SortDest& a = d[i];
  const SortDest& b = d[j];
  int r;
  if ((r = prefer(a.got_src, b.got_src))) return r;  // Rule 1
  // Past rule 1 both or neither have a source; glibc looks at a's flag only.
  bool src = a.got_src;
  int a_scope = glibc_scope(conf, a.dst), b_scope = glibc_scope(conf, b.dst);
  if (src && (r = prefer(a_scope == glibc_scope(conf, a.src), b_scope == glibc_scope(conf, b.src))))
    return r;  // Rule 2
  if (src && (r = prefer(!a.deprecated, !b.deprecated))) return r;      // Rule 3
  if (src && (r = prefer(a.home_address, b.home_address))) return r;   // Rule 4
  if (src && (r = prefer(match_prefix(conf.labels, a.dst) == match_prefix(conf.labels, a.src),
                         match_prefix(conf.labels, b.dst) == match_prefix(conf.labels, b.src))))
    return r;  // Rule 5
  int a_prec = match_prefix(conf.precedence, a.dst), b_prec = match_prefix(conf.precedence, b.dst);
  if (a_prec != b_prec) return a_prec > b_prec ? -1 : 1;  // Rule 6
  if (src && a.ifindex != b.ifindex && (r = prefer(a.native, b.native))) return r;  // Rule 7
  if (a_scope != b_scope) return a_scope < b_scope ? -1 : 1;                        // Rule 8
  if (src && a.dst.family == b.dst.family) {                                        // Rule 9
    int bits_a, bits_b;
    common_prefixes(a, b, bits_a, bits_b);
    if (bits_a != bits_b) return bits_a > bits_b ? -1 : 1;
  }
  return i < j ? -1 : 1;  // Rule 10
}

namespace {

void merge_sort(const GaiConf& conf, const SortDest* d, size_t* b, size_t n, size_t* tmp) {
  if (n <= 1) return;
  size_t n1 = n / 2, n2 = n - n1;
  size_t *b1 = b, *b2 = b + n1;
  merge_sort(conf, d, b1, n1, tmp);
  merge_sort(conf, d, b2, n2, tmp);
  size_t* out = tmp;
  while (n1 > 0 && n2 > 0) {
    if (glibc_compare(conf, d, *b1, *b2) <= 0) {
      *out++ = *b1++;
      --n1;
    } else {
      *out++ = *b2++;
      --n2;
    }
  }
  memcpy(out, b1, n1 * sizeof *b1);
  memcpy(b, tmp, (n - n2) * sizeof *b);
}

}  // namespace

void glibc_sort(const GaiConf& conf, const SortDest* d, size_t n, size_t* order) {
  size_t tmp[n > 0 ? n : 1];
  for (size_t i = 0; i < n; ++i) order[i] = i;
  merge_sort(conf, d, order, n, tmp);
}

bool glibc_sort_entries(const IpAddr* addrs, size_t n, size_t per_addr, size_t* order) {
  size_t ne = n * per_addr;
  SortDest* d = static_cast<SortDest*>(malloc(ne * sizeof(SortDest)));
  if (!d) return false;
  RouteProbe probe;
  for (size_t i = 0; i < n; ++i) {
    SortDest one;
    one.dst = addrs[i];
    one.got_src = route_source(probe, one.dst, &one.src) == 1;
    for (size_t j = 0; j < per_addr; ++j) d[i * per_addr + j] = one;
  }
  close_probe(probe);
  GaiConfRef conf = current_gai_conf();
  if (conf) {
    glibc_sort(*conf, d, ne, order);
  } else {
    GaiConf defaults;
    gai_conf_defaults(defaults);
    glibc_sort(defaults, d, ne, order);
  }
  free(d);
  return true;
}

}  // namespace rk8s
