// SPDX-License-Identifier: Apache-2.0
// The entry points as the replaced libc answers them, layer by layer: its
// own checks, /etc/hosts, then DNS through autopath and the classic walk,
// then its results.
#pragma once

#include <netdb.h>

#include "lookup/lookup.h"

// glibc's values; musl has neither, and never sets them.
#ifndef NETDB_INTERNAL
#define NETDB_INTERNAL (-1)
#endif
#ifndef NETDB_SUCCESS
#define NETDB_SUCCESS 0
#endif

namespace rk8s {

// What the last DNS lookup of a call did (for `resolv-k8s lookup`).
struct ResolveTrace {
  bool used_dns = false;
  Plan plan;
  LookupResult result;
};

// addrinfo.cc: getaddrinfo(node, service, hints, res), or kLetLibcAnswer
// (never an EAI_* code): the caller must hand the call to libc.
constexpr int kLetLibcAnswer = 3;
int resolve_addrinfo(const char* node, const char* service, const struct addrinfo* hints,
                     struct addrinfo** res, ExchangeFn exchange, ResolveTrace* trace);

// hostent.cc: gethostbyname2_r(name, af, h, buf, len, result, h_errnop):
// 0 or the errno value the libc returns, with *result and *h_errnop as it
// leaves them; or kHostentLibc: libc must answer the call.
//
// glibc 2.36: numeric names first (__nss_hostname_digits_dots), then the
// `hosts:` sources: files (one family, aliases), dns (gethostbyname3_r: one
// walk of A or AAAA queries; h_name the last name getanswer_r stored, the
// question and CNAME targets before it in h_aliases). musl 1.2.3:
// __lookup_name, as getaddrinfo asks it; h_aliases = {canon, name if it
// differs}.
constexpr int kHostentLibc = -1;
int resolve_hostent(const char* name, int af, struct hostent* h, char* buf, size_t len,
                    struct hostent** result, int* h_errnop, ExchangeFn exchange,
                    ResolveTrace* trace);

// search.cc: res_nsearch(statp, name, klass, type, answer, anslen) as glibc
// 2.36 answers it (__res_context_search), for a `statp` that holds what
// `conf` holds (the caller checks): the reply's length, or -1 with *herr
// set; or kLetLibcAnswer (no reply is that short): libc must answer.
int resolve_search(const Config& conf, const char* name, int klass, int type, uint8_t* answer,
                   int anslen, int* herr, ExchangeFn exchange, ResolveTrace* trace);

// dns_step.cc: the DNS step of all three, in two pieces: the configuration
// and search plan of `node` (0, kLetLibcAnswer, or the plan's EAI_* error:
// the libc asks DNS nothing), then one counted walk.
int dns_plan(const char* node, Config& conf, Plan& plan, ResolveTrace* trace);
int dns_plan_for(const char* node, const Config& conf, Plan& plan, ResolveTrace* trace);
void dns_lookup(const LookupRequest& req, LookupResult& r, ResolveTrace* trace);

// counters.cc: since the process started (all threads).
constexpr size_t kDurationBounds = 16;
// The buckets' upper bounds in microseconds: 100 us to 10 s.
extern const uint32_t kDurationBoundUs[kDurationBounds];

struct Counters {
  uint64_t lookups;          // calls we answered
  uint64_t dns_lookups;      // walks that reached DNS
  uint64_t queries;          // queries we sent
  uint64_t classic_queries;  // queries the libc's walk would have sent
  uint64_t autopath;         // walks the server did for us
  uint64_t fallbacks;        // walks where the server could not
  uint64_t libc;             // calls handed to libc
  // How long every call took, ours and libc's: a histogram (the last
  // bucket above every bound) and the sum.
  uint64_t duration_buckets[kDurationBounds + 1];
  uint64_t duration_us_sum;
};
Counters counters();
void count_lookup();
void count_libc_call();
void count_walk(const LookupResult& r);

// A monotonic clock reading for count_duration, which counts one call.
uint64_t duration_start();
void count_duration(uint64_t start);

}  // namespace rk8s
