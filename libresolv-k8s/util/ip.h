// SPDX-License-Identifier: Apache-2.0
// IP addresses: one type for nameservers, /etc/hosts entries, DNS answers
// and getaddrinfo results, and the ways the libcs read and write them.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include "util/base.h"

namespace rk8s {

struct IpAddr {
  uint8_t family = 0;     // AF_INET or AF_INET6
  uint8_t addr[16] = {};  // AF_INET: the first 4 bytes, the rest 0
  uint32_t scope_id = 0;  // AF_INET6: fe80::1%2, fe80::1%eth0
};

bool same_ip(const IpAddr& a, const IpAddr& b);
// 4 or 16.
inline size_t ip_size(const IpAddr& a) { return a.family == AF_INET ? 4 : 16; }

// ::ffff:0:0/96, where IPv4 addresses live in IPv6.
extern const uint8_t kV4MappedPrefix[12];
bool is_v4_mapped(const IpAddr& a);
// ::ffff:a.b.c.d for a.b.c.d.
IpAddr v4_mapped(const IpAddr& v4);
// The 16 bytes an address has as IPv6: IPv4 mapped, IPv6 as it is.
void ip_as_v6(const IpAddr& a, uint8_t (&out)[16]);

// The scope of an IPv6 address (RFC 4291): multicast's own field; 2 for
// link-local and loopback, 5 for site-local, else 14 (global).
int ipv6_scope(const uint8_t (&a)[16]);

// inet_aton's forms, as glibc's inet_aton_exact and musl's __inet_aton
// read them (they agree): "127.1", "0x7f.1", "017.0.0.1"; all of `s`.
bool parse_inet_aton(Str s, uint8_t out[4]);
// inet_pton on text that is not NUL-terminated.
bool parse_inet_pton(int family, Str s, uint8_t* out);

// An IPv6 %scope as glibc's __inet6_scopeid_pton reads it (an interface
// name for link-local addresses, else a number) and as musl's
// __lookup_ipliteral does (a number, else an interface name for link-local
// addresses). False when the libc refuses it.
bool glibc_scope_id(const uint8_t (&addr)[16], Str scope, uint32_t& id);
bool musl_scope_id(const uint8_t (&addr)[16], Str scope, uint32_t& id);

enum class Literal : uint8_t {
  none,       // not an address literal
  ok,         // `out` is the address
  bad_scope,  // IPv6 with a %scope `dialect` refuses: `out` is the address, scope 0
};
// An address literal as each libc reads one where a name or address may
// stand (resolv.conf, hosts, getaddrinfo): inet_aton's IPv4 forms, or IPv6
// with an optional %scope, split off when it starts within 64 bytes.
Literal parse_ip_literal(Dialect dialect, Str text, IpAddr& out);

// The sockaddr_in or sockaddr_in6 of `a` and `port` (host order), written
// to `out` (room for a sockaddr_in6); returns its length.
socklen_t ip_to_sockaddr(const IpAddr& a, uint16_t port, void* out);
IpAddr ip_from_sockaddr(const sockaddr* sa);

// inet_ntop, then "%N" for a scope; as snprintf, returns the length needed.
size_t ip_to_text(const IpAddr& a, char* out, size_t cap);

}  // namespace rk8s
