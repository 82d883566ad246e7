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

// What the rules read of a destination in the gai.conf tables, looked up
// once per destination rather than in every comparison.
struct Ranks {
  int dst_scope, precedence;
  int src_scope = 0, dst_label = 0, src_label = 0;  // with a source
};

Ranks ranks_of(const GaiConf& conf, const SortDest& d) {
  Ranks r{glibc_scope(conf, d.dst), match_prefix(conf.precedence, d.dst)};
  if (d.got_src) {
    r.src_scope = glibc_scope(conf, d.src);
    r.dst_label = match_prefix(conf.labels, d.dst);
    r.src_label = match_prefix(conf.labels, d.src);
  }
  return r;
}

// a = d[i], b = d[j], with their ranks.
int compare(const SortDest& a, const Ranks& ra, size_t i, const SortDest& b, const Ranks& rb,
            size_t j) {
  int r;
  if ((r = prefer(a.got_src, b.got_src))) return r;  // Rule 1
  // Past rule 1 both or neither have a source; glibc looks at a's flag only.
  bool src = a.got_src;
  if (src && (r = prefer(ra.dst_scope == ra.src_scope, rb.dst_scope == rb.src_scope)))
    return r;                                                          // Rule 2
  if (src && (r = prefer(!a.deprecated, !b.deprecated))) return r;     // Rule 3
  if (src && (r = prefer(a.home_address, b.home_address))) return r;  // Rule 4
  if (src && (r = prefer(ra.dst_label == ra.src_label, rb.dst_label == rb.src_label)))
    return r;  // Rule 5
  if (ra.precedence != rb.precedence) return ra.precedence > rb.precedence ? -1 : 1;  // Rule 6
  if (src && a.ifindex != b.ifindex && (r = prefer(a.native, b.native))) return r;  // Rule 7
  if (ra.dst_scope != rb.dst_scope) return ra.dst_scope < rb.dst_scope ? -1 : 1;    // Rule 8
  if (src && a.dst.family == b.dst.family) {                                        // Rule 9
    int bits_a, bits_b;
    common_prefixes(a, b, bits_a, bits_b);
    if (bits_a != bits_b) return bits_a > bits_b ? -1 : 1;
  }
  return i < j ? -1 : 1;  // Rule 10
}

void merge_sort(const SortDest* d, const Ranks* ranks, size_t* b, size_t n, size_t* tmp) {
  if (n <= 1) return;
  size_t n1 = n / 2, n2 = n - n1;
  size_t *b1 = b, *b2 = b + n1;
  merge_sort(d, ranks, b1, n1, tmp);
  merge_sort(d, ranks, b2, n2, tmp);
  size_t* out = tmp;
  while (n1 > 0 && n2 > 0) {
    if (compare(d[*b1], ranks[*b1], *b1, d[*b2], ranks[*b2], *b2) <= 0) {
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

bool same_addresses(const SortDest& a, const SortDest& b) {
  return same_ip(a.dst, b.dst) && a.got_src == b.got_src && (!a.got_src || same_ip(a.src, b.src));
}

}  // namespace

int glibc_compare(const GaiConf& conf, const SortDest* d, size_t i, size_t j) {
  return compare(d[i], ranks_of(conf, d[i]), i, d[j], ranks_of(conf, d[j]), j);
}

void glibc_sort(const GaiConf& conf, const SortDest* d, size_t n, size_t* order) {
  size_t tmp[n > 0 ? n : 1];
  Ranks ranks[n > 0 ? n : 1];
  for (size_t i = 0; i < n; ++i) {
    order[i] = i;
    // getaddrinfo's entries come in runs of one address (one per socket type).
    ranks[i] = i > 0 && same_addresses(d[i], d[i - 1]) ? ranks[i - 1] : ranks_of(conf, d[i]);
  }
  merge_sort(d, ranks, order, n, tmp);
}

bool glibc_sort_entries(const IpAddr* addrs, size_t n, size_t per_addr, size_t* order) {
  size_t ne = n * per_addr;
  SortDest* d = static_cast<SortDest*>(malloc(ne * sizeof(SortDest)));
  if (!d) return false;
  // glibc opens the socket for the first destination's family, and again
  // for IPv6 when an IPv6 one follows IPv4 ones; an IPv6 socket takes the
  // IPv4 destinations as well (their sources come back mapped). With an
  // IPv6 destination among them, the one socket is IPv6 from the start, as
  // glibc's is when one comes first: a socket less than glibc's for the
  // usual A-then-AAAA order, the same sources (where IPv6 sockets are
  // IPv6-only, net.ipv6.bindv6only, one more: the IPv4 one is reopened).
  RouteProbe probe;
  for (size_t i = 0; i < n; ++i)
    if (addrs[i].family == AF_INET6) {
      open_probe(probe, AF_INET6);
      break;
    }
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
