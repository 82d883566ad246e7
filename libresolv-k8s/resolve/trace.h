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

// The outcome of one entry point's call (getaddrinfo, gethostbyname*, res_search).
void trace_outcome(const char* node, int rc, const ResolveTrace& trace);

// resolve(exchange, trace) for `name`, logged when `debug`.
template <class Resolve>
int maybe_traced(bool debug, const char* name, Resolve resolve) {
  if (!debug) return resolve(exchange, nullptr);
  ResolveTrace trace;
  int rc = resolve(traced_exchange, &trace);
  trace_outcome(name, rc, trace);
  return rc;
}

}  // namespace rk8s
