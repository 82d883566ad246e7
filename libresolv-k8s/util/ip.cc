// Nameserver addresses: inet_aton's IPv4 forms, IPv6 with an optional %scope.
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "conf/parse.h"

namespace rk8s::conf {

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

// a, a.b, a.b.c or a.b.c.d, the last part filling the remaining bytes; the
// whole of `s` must be consumed (glibc's __inet_aton_exact, musl's __inet_aton).
bool parse_ipv4(Str s, uint8_t out[4]) {
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

// Copies `s` into a C string for the libc call; false when it cannot fit.
static bool c_string(Str s, char* buf, size_t cap) {
  if (s.size >= cap) return false;
  memcpy(buf, s.data, s.size);
  buf[s.size] = 0;
  return true;
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

// glibc (__inet6_scopeid_pton): an interface name for link-local addresses,
// else a number; a bad scope is ignored, the address kept with scope 0.
static uint32_t glibc_scope(const in6_addr& a, Str scope) {
  uint32_t id = 0;
  if (IN6_IS_ADDR_LINKLOCAL(&a) || IN6_IS_ADDR_MC_NODELOCAL(&a) || IN6_IS_ADDR_MC_LINKLOCAL(&a))
    id = interface_index(scope);
  if (id == 0) all_digits_u32(scope, id);  // leaves 0 when it is no number
  return id;
}

// musl (__lookup_ipliteral): a number, else an interface name for link-local
// addresses; a bad scope drops the nameserver.
static bool musl_scope(const in6_addr& a, Str scope, uint32_t& id) {
  if (scope.size && skip(scope, is_digit).size == 0) return all_digits_u32(scope, id);
  if (!IN6_IS_ADDR_LINKLOCAL(&a) && !IN6_IS_ADDR_MC_LINKLOCAL(&a)) return false;
  id = interface_index(scope);
  return id != 0;
}

bool parse_nameserver(Dialect d, Str token, Nameserver& out) {
  out = Nameserver{};
  if (parse_ipv4(token, out.addr)) {
    out.family = AF_INET;
    return true;
  }
  size_t percent = find(token, '%');
  // musl only splits off a scope that starts within 64 bytes; no valid address is that long anyway.
  char buf[64];
  in6_addr a;
  if (percent == 0 || !c_string(take(token, percent), buf, sizeof buf) || inet_pton(AF_INET6, buf, &a) != 1)
    return false;
  out.family = AF_INET6;
  memcpy(out.addr, &a, 16);
  if (percent == token.size) return true;
  Str scope = drop(token, percent + 1);
  if (d == Dialect::musl) return musl_scope(a, scope, out.scope_id);
  out.scope_id = glibc_scope(a, scope);
  return true;
}

}  // namespace rk8s::conf
