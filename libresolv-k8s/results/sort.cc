// glibc's rfc3484_sort and musl's sort key, rule for rule.
#include "results/sort.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rk8s {
namespace {

constexpr uint8_t kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

// IPv4 as its IPv4-mapped IPv6 form; IPv6 unchanged.
void as_v6(const GaiAddr& a, uint8_t (&out)[16]) {
  if (a.family == AF_INET) {
    memcpy(out, kMappedPrefix, 12);
    memcpy(out + 12, a.addr, 4);
  } else {
    memcpy(out, a.addr, 16);
  }
}

bool is_loopback6(const uint8_t* a) {
  static constexpr uint8_t kOne[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  return memcmp(a, kOne, 16) == 0;
}
bool is_linklocal6(const uint8_t* a) { return a[0] == 0xfe && (a[1] & 0xc0) == 0x80; }
bool is_sitelocal6(const uint8_t* a) { return a[0] == 0xfe && (a[1] & 0xc0) == 0xc0; }

int scope6(const uint8_t* a) {
  if (a[0] == 0xff) return a[1] & 0xf;
  if (is_linklocal6(a) || is_loopback6(a)) return 2;
  if (is_sitelocal6(a)) return 5;
  return 14;
}

int glibc_scope(const GaiConf& conf, const GaiAddr& a) {
  if (a.family == AF_INET6) return scope6(a.addr);
  uint32_t v4;
  memcpy(&v4, a.addr, 4);
  for (const GaiScope& s : conf.scopes)
    if ((v4 & s.mask) == s.addr) return s.scope;
  return 14;  // unreachable: every table ends with a catch-all
}

template <size_t N>
int match_prefix(const FixedVec<GaiPrefix, N>& list, const GaiAddr& a) {
  uint8_t v6[16];
  as_v6(a, v6);
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

// The sockaddr a GaiAddr stands for, port 0.
socklen_t to_sockaddr(const GaiAddr& a, sockaddr_in6& sa) {
  memset(&sa, 0, sizeof sa);
  if (a.family == AF_INET) {
    auto* sin = reinterpret_cast<sockaddr_in*>(&sa);
    sin->sin_family = AF_INET;
    memcpy(&sin->sin_addr, a.addr, 4);
    return sizeof(sockaddr_in);
  }
  sa.sin6_family = AF_INET6;
  memcpy(&sa.sin6_addr, a.addr, 16);
  sa.sin6_scope_id = a.scope_id;
  return sizeof sa;
}

void from_sockaddr(const sockaddr_in6& sa, GaiAddr& a) {
  a = GaiAddr{};
  a.family = uint8_t(sa.sin6_family);
  if (sa.sin6_family == AF_INET)
    memcpy(a.addr, &reinterpret_cast<const sockaddr_in&>(sa).sin_addr, 4);
  else
    memcpy(a.addr, &sa.sin6_addr, 16);
}

// Connects a UDP socket to dst; 1 with *src set, 0 reachable but no source,
// -1 unreachable.
int route_source(const GaiAddr& dst, GaiAddr* src) {
  int fd = socket(dst.family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
  if (fd < 0) return -1;
  sockaddr_in6 sa;
  socklen_t len = to_sockaddr(dst, sa);
  int r = -1;
  if (connect(fd, reinterpret_cast<sockaddr*>(&sa), len) == 0) {
    len = sizeof sa;
    r = 0;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0) {
      from_sockaddr(sa, *src);
      r = 1;
    }
  }
  close(fd);
  return r;
}

}  // namespace

void glibc_sort(const GaiConf& conf, const SortDest* d, size_t n, size_t* order) {
  size_t tmp[n > 0 ? n : 1];
  for (size_t i = 0; i < n; ++i) order[i] = i;
  merge_sort(conf, d, order, n, tmp);
}

void glibc_find_sources(SortDest* d, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i].got_src = route_source(d[i].dst, &d[i].src) == 1;
}

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

int musl_sort_key(const GaiAddr& dst, const GaiAddr* src, bool usable, size_t i) {
  uint8_t d6[16];
  as_v6(dst, d6);
  const MuslPolicy& policy = musl_policy(d6);
  int scope = scope6(d6);
  int key = 0;
  if (usable) key |= 0x40000000;
  int prefixlen = 0;
  if (src) {
    uint8_t s6[16];
    as_v6(*src, s6);
    if (scope == scope6(s6)) key |= 0x20000000;
    if (policy.label == musl_policy(s6).label) key |= 0x10000000;
    prefixlen = common_bits(s6, d6);
  }
  return key | policy.prec << 20 | (15 - scope) << 16 | prefixlen << 8 | int(kMaxGaiAddrs - i);
}

void musl_sort(GaiAddr* addrs, size_t n) {
  int keys[kMaxGaiAddrs];
  for (size_t i = 0; i < n; ++i) {
    GaiAddr src;
    int r = route_source(addrs[i], &src);
    keys[i] = musl_sort_key(addrs[i], r == 1 ? &src : nullptr, r >= 0, i);
  }
  // Keys are distinct (the position is in them): any sort gives musl's order.
  for (size_t i = 1; i < n; ++i) {
    GaiAddr a = addrs[i];
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
