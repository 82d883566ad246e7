// SPDX-License-Identifier: Apache-2.0
// The DNS step of every entry point: the configuration and search plan of a
// name, then one counted lookup.
#pragma once

#include "resolve/trace.h"
#include "transport/exchange.h"

namespace rk8s {

// What getaddrinfo, res_search and dns_plan return when libc must answer
// the whole call: no EAI_* code (those are negative), and no reply's length
// (none is that short).
constexpr int kLetLibcAnswer = 3;

// The configuration (dns_plan reads the current one) and search plan of
// `node`: 0, kLetLibcAnswer, or the plan's EAI_* error (the libc asks DNS
// nothing).
int dns_plan(const char* node, Config& conf, Plan& plan, ResolveTrace* trace);
int dns_plan_for(const char* node, const Config& conf, Plan& plan, ResolveTrace* trace);
// The lookup, counted (counters.h) and kept in `trace`.
void dns_lookup(const LookupRequest& req, LookupResult& r, ResolveTrace* trace);

// resolve(exchange, trace) for `name`: the transport the call's queries go
// out by, and its record; when `debug`, the transport that also writes each
// query and reply, and the outcome written after.
template <class Resolve>
int maybe_traced(bool debug, const char* name, Resolve resolve) {
  if (!debug) return resolve(exchange, nullptr);
  ResolveTrace trace;
  int rc = resolve(traced_exchange, &trace);
  trace_outcome(name, rc, trace);
  return rc;
}

}  // namespace rk8s
