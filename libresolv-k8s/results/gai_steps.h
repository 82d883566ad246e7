// SPDX-License-Identifier: Apache-2.0
// getaddrinfo's own logic around a name lookup, exactly as each libc does
// it, one step a file in the libc's order: hints, services (services.h),
// numeric hosts (numeric.h), AI_ADDRCONFIG (addrconfig.h), then the
// resolver's addresses turned into the sorted, malloc'd result list (list.h).
//
//   int rc = gai_start(dialect, node, service, hints, req, &res);
//   if (rc == kGaiResolve) {
//     ... look req.node up for req.want_a / req.want_aaaa ...
//     rc = found ? gai_finish(req, addrs, n, canon, &res) : EAI_...;
//   }
#pragma once

#include <netdb.h>

#include "util/ip.h"

namespace rk8s {

// One (socktype, protocol, port) the results are expanded over.
struct GaiServ {
  int socktype = 0;
  int protocol = 0;
  uint16_t port = 0;  // host order
};

constexpr size_t kMaxGaiServs = 8;    // glibc: tcp udp dccp udplite sctp sctp
constexpr size_t kMaxGaiAddrs = 48;   // musl's MAXADDRS; glibc has no limit

// One getaddrinfo call, as the libc has understood it before any lookup.
struct GaiRequest {
  Dialect dialect = Dialect::glibc;
  const char* node = nullptr;  // glibc: "*" already turned into nullptr
  int flags = 0;
  int family = AF_UNSPEC;      // after AI_ADDRCONFIG narrowed it
  FixedVec<GaiServ, kMaxGaiServs> servs;
  // What the lookup must find; set when gai_start returns kGaiResolve.
  bool want_a = false;
  bool want_aaaa = false;
  // glibc AF_INET6 with AI_V4MAPPED and no AI_ALL: A only when no AAAA.
  bool a_only_without_aaaa = false;
  // musl 1.2.4 on: AI_ADDRCONFIG found the family asked for missing and
  // looks the other up; what it finds ends in EAI_NODATA.
  bool no_family = false;
  uint32_t release = 0;  // of the dialect's libc (base.h), set by gai_start
};

// EAI_* codes are negative in both libcs.
constexpr int kGaiResolve = 1;  // look req.node up, then call gai_finish
constexpr int kGaiLibc = 2;     // a non-ASCII name with AI_IDN: the libc must answer
constexpr int kAiCanonIdn = 0x0080;  // glibc's AI_CANONIDN (musl's headers lack it)

// Everything getaddrinfo decides before a name lookup. Returns 0 with *res
// set (node NULL or numeric), kGaiResolve, kGaiLibc, or the EAI_* error the
// libc returns.
int gai_start(Dialect dialect, const char* node, const char* service,
              const struct addrinfo* hints, GaiRequest& req, struct addrinfo** res);

// The name's addresses in the order the libc collects them: hosts file
// order; DNS A answers then AAAA answers (glibc AF_INET6 + AI_V4MAPPED +
// AI_ALL: AAAA then A). IPv4 entries for an AF_INET6 lookup are mapped here.
// `canon` is the canonical name the lookup found, or nullptr.
int gai_finish(const GaiRequest& req, const IpAddr* addrs, size_t count, const char* canon,
               struct addrinfo** res);

}  // namespace rk8s
