// getaddrinfo as the replaced libc answers it: its own checks, /etc/hosts,
// then DNS through autopath and the classic walk, then its results.
#pragma once

#include <netdb.h>

#include "lookup/lookup.h"

namespace rk8s {

// Returned instead of an EAI_* code: the caller must hand the call to libc.
constexpr int kLetLibcAnswer = 3;

// What the last DNS lookup of a call did (for `resolv-k8s lookup`).
struct ResolveTrace {
  bool used_dns = false;
  Plan plan;
  LookupResult result;
};

int resolve_addrinfo(const char* node, const char* service, const struct addrinfo* hints,
                     struct addrinfo** res, ExchangeFn exchange, ResolveTrace* trace);

// getaddrinfo's DNS step in two pieces, for the other entry points: the
// configuration and search plan of `node` (0, kLetLibcAnswer, or the
// plan's EAI_* error: the libc asks DNS nothing), then one counted walk.
int dns_plan(const char* node, Config& conf, Plan& plan, ResolveTrace* trace);
void dns_lookup(const Config& conf, const Plan& plan, const uint16_t* qtypes, size_t nq,
                ExchangeFn exchange, LookupResult& r, ResolveTrace* trace);

// Counters since the process started (all threads).
struct Counters {
  uint64_t lookups;          // getaddrinfo calls we answered
  uint64_t dns_lookups;      // walks that reached DNS
  uint64_t queries;          // queries we sent
  uint64_t classic_queries;  // queries the libc's walk would have sent
  uint64_t autopath;         // walks the server did for us
  uint64_t fallbacks;        // walks where the server could not
  uint64_t libc;             // calls handed to libc
};
Counters counters();
void count_lookup();
void count_libc_call();

}  // namespace rk8s
