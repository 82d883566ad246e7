// SPDX-License-Identifier: Apache-2.0
// The search plan: the names the replaced libc would ask DNS for, in order
// (glibc's __res_context_search, musl's name_from_dns_search), and the
// autopath query standing for them (docs/autopath-protocol.md). Numeric addresses and /etc/hosts
// come first in both libcs; the plan starts where they found nothing.
#pragma once

#include "dns/autopath.h"
#include "conf/resolv_conf.h"

namespace rk8s {

constexpr uint8_t kAsIs = 255;

struct Plan {
  enum Kind : uint8_t {
    dns,           // ask for the candidates in order
    invalid_name,  // the libc never asks DNS for this name; it fails with `error`
  } kind = invalid_name;
  int error = 0;  // invalid_name: the EAI_* getaddrinfo returns
  dns::Name base;  // the name as typed, as an absolute name
  // Per candidate: the search domain's index, or kAsIs. A candidate the libc
  // cannot encode (over 255 bytes, an empty or long label) ends the list as
  // it ends the libc's walk: musl stops there; glibc stops searching and
  // still tries the name as-is (unless it is already in the list).
  FixedVec<uint8_t, kMaxSearch + 1> suffix;
};

// The marker of "DNS Autopath in PodSpec" (search.NS.DOMAIN.ap.k8s.io),
// in search domain text: a server that knows it answers it with the walk
// over the list behind it, which the library walks itself, and one that does
// not, NXDOMAIN. Either way its candidate adds a query and no answer: plans
// leave it out.
bool marker_domain(Str d);

// Only the first `name.size` bytes up to a NUL count, as in a C string.
void build_plan(const Config& conf, Str name, Plan& out);

// Candidate i, absolute. False when i is out of range.
bool candidate_name(const Config& conf, const Plan& plan, size_t i, dns::Name& out);

// QNAME = candidate 0; the option lists every candidate's suffix in order
// (the root for as-is), with `flags | kFlagQ`. False when there is nothing
// to send with an option: a single candidate without BOTH (`qname` is
// still candidate 0), or more than autopath::kMaxSuffixes.
bool autopath_query(const Config& conf, const Plan& plan, uint8_t flags, dns::Name& qname,
                    autopath::QueryOption& opt);

// The option's flags for a walk of `nq` query types: PAIRED when A and AAAA
// go together; STOP_ON_EXISTS always (musl stops at the first name that
// exists), and for glibc PAST_NODATA (it walks on past NODATA and must
// learn of it to end with EAI_NODATA; a server that ignores the flag
// stops there instead, and the client starts another round).
uint8_t autopath_flags(Dialect dialect, size_t nq);

}  // namespace rk8s
