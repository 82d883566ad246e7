// SPDX-License-Identifier: Apache-2.0
// /etc/hosts, read exactly as getaddrinfo's `files` source reads it.
//
// glibc 2.36 (nss_files): lines of any length, leading white space skipped,
// '#' starts a comment, strict inet_pton addresses, names matched ignoring
// ASCII case; without host.conf's `multi on` only the first matching line
// counts. musl 1.2.3 (name_from_hosts): 511-byte chunks, inet_aton
// addresses and IPv6 %scope, names matched case-sensitively, at most 48
// addresses. The lookup is pure: the caller passes the file's lines,
// streamed or in memory.
#pragma once

#include <sys/socket.h>

#include "util/ip.h"
#include "util/line_reader.h"

namespace rk8s {

constexpr size_t kMaxHostsAddrs = 48;  // musl's MAXADDRS; glibc has no limit
constexpr size_t kMaxHostsAliases = 32;
constexpr size_t kHostsNameBytes = 1024;

struct HostsQuery {
  Dialect dialect = Dialect::glibc;
  // AF_UNSPEC, AF_INET or AF_INET6. glibc: AF_UNSPEC reads lines as
  // gethostbyname4 does (each line its own family, no aliases); a single
  // family as gethostbyname3 does (AF_INET also takes ::ffff:a.b.c.d and
  // ::1 as IPv4). musl: the family after AI_V4MAPPED turned AF_INET6 into
  // AF_UNSPEC.
  int family = AF_UNSPEC;
  bool multi = false;  // glibc: every matching line (host.conf `multi on`, RESOLV_MULTI)
  uint32_t release = 0;  // of the dialect's libc (base.h); 0: its reference
};

struct HostsResult {
  FixedVec<IpAddr, kMaxHostsAddrs> addrs;  // file order; musl keeps %scope
  // musl: EAI_NONAME (EAI_NODATA from 1.2.4) when the name only matched
  // lines of the other family
  // (or with a bad %scope): musl then fails without asking DNS.
  int error = 0;
  // False when the file held more than we do (addresses, aliases, name
  // bytes, a glibc line we would have to copy whole or that the reader's
  // buffer cannot hold) or could not be read to the end: hand the lookup
  // to libc.
  bool complete = true;
  // glibc: the most room one of the lines read needs in nss_files' buffer
  // (the line, then a pointer per white space): gethostbyname_r's caller
  // must have room for each line nss_files reads before it answers.
  size_t line_room = 0;
  // The canonical name, then glibc's h_aliases for single-family lookups,
  // each NUL-terminated.
  char names[kHostsNameBytes] = {};
  FixedVec<uint16_t, kMaxHostsAliases> alias_at;

  bool found() const { return addrs.count != 0; }
  const char* canon() const { return names; }
  size_t alias_count() const { return alias_at.count; }
  const char* alias(size_t i) const { return names + alias_at[i]; }
};

// Looks `name` up in the file `lines` reads, from where it is; returns the
// number of addresses found.
size_t hosts_lookup(const HostsQuery& q, LineReader& lines, Str name, HostsResult& out);

}  // namespace rk8s
