// SPDX-License-Identifier: Apache-2.0
// IP addresses (ip.h): the libcs' literal forms, sockaddrs, text.
#include "util/ip.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>

#include "util/text.h"

namespace rk8s {

const uint8_t kV4MappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool same_ip(const IpAddr& a, const IpAddr& b) {
  return a.family == b.family && memcmp(a.addr, b.addr, sizeof a.addr) == 0 &&
         a.scope_id == b.scope_id;
}

bool is_v4_mapped(const IpAddr& a) {
  return a.family == AF_INET6 && memcmp(a.addr, kV4MappedPrefix, 12) == 0;
}

IpAddr v4_mapped(const IpAddr& v4) {
  IpAddr a;
  a.family = AF_INET6;
  ip_as_v6(v4, a.addr);
  return a;
}

void ip_as_v6(const IpAddr& a, uint8_t (&out)[16]) {
  if (a.family == AF_INET) {
    memcpy(out, kV4MappedPrefix, 12);
    memcpy(out + 12, a.addr, 4);
  } else {
    memcpy(out, a.addr, 16);
  }
}

static bool is_linklocal(const uint8_t (&a)[16]) { return a[0] == 0xfe && (a[1] & 0xc0) == 0x80; }
static bool is_sitelocal(const uint8_t (&a)[16]) { return a[0] == 0xfe && (a[1] & 0xc0) == 0xc0; }
static bool is_mc_linklocal(const uint8_t (&a)[16]) { return a[0] == 0xff && (a[1] & 0xf) == 2; }
static bool is_mc_nodelocal(const uint8_t (&a)[16]) { return a[0] == 0xff && (a[1] & 0xf) == 1; }
static bool is_loopback(const uint8_t (&a)[16]) {
  static constexpr uint8_t kOne[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  return memcmp(a, kOne, 16) == 0;
}

int ipv6_scope(const uint8_t (&a)[16]) {
  if (a[0] == 0xff) return a[1] & 0xf;
  if (is_linklocal(a) || is_loopback(a)) return 2;
  if (is_sitelocal(a)) return 5;
  return 14;
}

static unsigned digit_value(char c) {
  if (is_digit(c)) return unsigned(c - '0');
  char l = char(c | 32);
  return l >= 'a' && l <= 'f' ? unsigned(l - 'a' + 10) : 99;
}

// One C-style number (0x hex, 0 octal, else decimal) as strtoul(s, &end, 0)
// reads it after a leading digit; returns the bytes read. Saturates: every
// caller rejects values over 32 bits.
static size_t c_number(Str s, uint64_t& value) {
  unsigned base = 10;
  size_t i = 0;
  if (s.size >= 3 && s.data[0] == '0' && (s.data[1] | 32) == 'x' && digit_value(s.data[2]) < 16) {
    base = 16;
    i = 2;
  } else if (s.data[0] == '0') {
    base = 8;
  }
  value = 0;
  for (unsigned d; i < s.size && (d = digit_value(s.data[i])) < base; i++)
    value = value >> 40 ? value : value * base + d;
  return i;
}

// a, a.b, a.b.c or a.b.c.d, the last part filling the remaining bytes.
bool parse_inet_aton(Str s, uint8_t out[4]) {
  uint32_t parts[4];
  size_t n = 0;
  for (;;) {
    if (s.size == 0 || !is_digit(s.data[0]) || n == 4) return false;
    uint64_t v;
    s = drop(s, c_number(s, v));
    if (v > 0xffffffff) return false;
    parts[n++] = uint32_t(v);
    if (s.size == 0) break;
    if (s.data[0] != '.') return false;
    s = drop(s, 1);
  }
  static const uint32_t last_max[4] = {0xffffffff, 0xffffff, 0xffff, 0xff};
  if (parts[n - 1] > last_max[n - 1]) return false;
  uint32_t addr = parts[n - 1];
  for (size_t i = 0; i + 1 < n; i++) {
    if (parts[i] > 0xff) return false;
    addr |= parts[i] << (24 - 8 * i);
  }
  store32(out, addr);
  return true;
}

// Copies `s` into a C string for a libc call; false when it cannot fit or
// holds a NUL (the libc would read less of it than we were given).
static bool c_string(Str s, char* buf, size_t cap) {
  if (s.size >= cap || memchr(s.data, 0, s.size)) return false;
  memcpy(buf, s.data, s.size);
  buf[s.size] = 0;
  return true;
}

bool parse_inet_pton(int family, Str s, uint8_t* out) {
  char buf[64];  // longer than any address text
  return c_string(s, buf, sizeof buf) && inet_pton(family, buf, out) == 1;
}

static bool all_digits_u32(Str s, uint32_t& out) {
  uint64_t v = 0;
  if (s.size == 0) return false;
  for (size_t i = 0; i < s.size; i++) {
    if (!is_digit(s.data[i])) return false;
    v = v * 10 + unsigned(s.data[i] - '0');
    if (v > 0xffffffff) return false;
  }
  out = uint32_t(v);
  return true;
}

static uint32_t interface_index(Str name) {
  char buf[IF_NAMESIZE];
  return c_string(name, buf, sizeof buf) ? if_nametoindex(buf) : 0;
}

bool glibc_scope_id(const uint8_t (&a)[16], Str scope, uint32_t& id) {
  if (is_linklocal(a) || is_mc_nodelocal(a) || is_mc_linklocal(a)) {
    if ((id = interface_index(scope))) return true;
  }
  return all_digits_u32(scope, id);
}

bool musl_scope_id(const uint8_t (&a)[16], Str scope, uint32_t& id) {
  if (scope.size && skip(scope, is_digit).size == 0) return all_digits_u32(scope, id);
  if (!is_linklocal(a) && !is_mc_linklocal(a)) return false;
  // musl's if_nametoindex copies 16 bytes into the ifreq, and the kernel
  // reads the name to the 15th.
  id = interface_index(take(scope, IF_NAMESIZE - 1));
  return id != 0;
}

Literal parse_ip_literal(Dialect dialect, Str text, IpAddr& out) {
  out = IpAddr{};
  if (parse_inet_aton(text, out.addr)) {
    out.family = AF_INET;
    return Literal::ok;
  }
  size_t percent = find(text, '%');
  if (percent >= 64 || !parse_inet_pton(AF_INET6, take(text, percent), out.addr))
    return Literal::none;
  out.family = AF_INET6;
  if (percent == text.size) return Literal::ok;
  Str scope = drop(text, percent + 1);
  uint32_t id = 0;
  bool ok = dialect == Dialect::musl ? musl_scope_id(out.addr, scope, id)
                                     : glibc_scope_id(out.addr, scope, id);
  if (!ok) return Literal::bad_scope;
  out.scope_id = id;
  return Literal::ok;
}

socklen_t ip_to_sockaddr(const IpAddr& a, uint16_t port, void* out) {
  if (a.family == AF_INET) {
    sockaddr_in sin{};
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    memcpy(&sin.sin_addr, a.addr, 4);
    memcpy(out, &sin, sizeof sin);
    return sizeof sin;
  }
  sockaddr_in6 sin6{};
  sin6.sin6_family = AF_INET6;
  sin6.sin6_port = htons(port);
  memcpy(&sin6.sin6_addr, a.addr, 16);
  sin6.sin6_scope_id = a.scope_id;
  memcpy(out, &sin6, sizeof sin6);
  return sizeof sin6;
}

IpAddr ip_from_sockaddr(const sockaddr* sa) {
  IpAddr a;
  a.family = uint8_t(sa->sa_family);
  if (sa->sa_family == AF_INET) {
    memcpy(a.addr, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, 4);
  } else {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(sa);
    memcpy(a.addr, &sin6->sin6_addr, 16);
    a.scope_id = sin6->sin6_scope_id;
  }
  return a;
}

size_t ip_to_text(const IpAddr& a, char* out, size_t cap) {
  char text[INET6_ADDRSTRLEN] = "";
  inet_ntop(a.family, a.addr, text, sizeof text);
  int n = a.scope_id ? snprintf(out, cap, "%s%%%u", text, unsigned(a.scope_id))
                     : snprintf(out, cap, "%s", text);
  return n > 0 ? size_t(n) : 0;
}

}  // namespace rk8s
