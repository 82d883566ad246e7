// SPDX-License-Identifier: Apache-2.0
// The steps of getaddrinfo around the lookup, one file each: services,
// numeric hosts, AI_ADDRCONFIG, the result list. start.cc runs them in each
// libc's order.
#pragma once

#include "results/addrinfo.h"

namespace rk8s {

// services.cc: the (socktype, protocol, port) list into req.servs; 0 or
// EAI_*. glibc: `num` is the service's number, or -1 for a name.
int glibc_services(GaiRequest& req, const char* service, int num, int socktype, int protocol);
int musl_services(GaiRequest& req, const char* service, int socktype, int protocol, int flags);

// numeric.cc. glibc (text_to_binary_address): 0 with `found` set when
// `name` is an address, else 0 or EAI_*. musl (__lookup_ipliteral): 1 when
// numeric, 0 when not, or EAI_*.
int glibc_numeric(const GaiRequest& req, const char* name, IpAddr& a, bool& found);
int musl_numeric(const char* name, int family, uint32_t release, IpAddr& a);
// The addresses for node NULL: glibc lists IPv6 first, musl IPv4 first.
size_t wildcard_addrs(const GaiRequest& req, int family, IpAddr (&out)[2]);

// addrconfig.cc: AI_ADDRCONFIG narrows req.family; 0 or EAI_*.
int glibc_addrconfig(GaiRequest& req);
int musl_addrconfig(GaiRequest& req);

// list.cc: the malloc'd list in the libc's layout, addresses times services
// (glibc sorts the entries); EAI_NONAME when there is no address.
int build_list(const GaiRequest& req, const IpAddr* addrs, size_t n, const char* canon,
               struct addrinfo** res);

}  // namespace rk8s
