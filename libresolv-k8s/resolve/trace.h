// SPDX-License-Identifier: Apache-2.0
// The debug log (RESOLV_K8S_DEBUG=1, `resolv-k8s lookup`): every query and
// reply of a lookup, then its outcome, one line each on stderr.
#pragma once

#include "lookup/lookup.h"

namespace rk8s {

// What the last DNS lookup of a call did.
struct ResolveTrace {
  bool used_dns = false;
  Plan plan;
  LookupResult result;
};

// The transport, writing each query and what came back.
void traced_exchange(const Config& conf, const Bytes* queries, Reply* replies, size_t n);

// The outcome of one entry point's call (getaddrinfo, gethostbyname2_r or
// res_nsearch) for `node`: what it returned, and what its DNS lookup did.
void trace_outcome(const char* node, int rc, const ResolveTrace& trace);

}  // namespace rk8s
