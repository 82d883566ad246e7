// SPDX-License-Identifier: Apache-2.0
// What the process had before us: libc's own entry points, and whether the
// environment switched us off.
#pragma once

#include <netdb.h>
#include <resolv.h>

#include "resolve/counters.h"

// Our definitions of the entry points: exported (everything else is hidden),
// and declared as the libc's headers declare them (glibc's are noexcept).
#ifndef __THROW
#define __THROW
#endif
#define EXPORT extern "C" __attribute__((visibility("default")))

#ifdef __GLIBC__
// Weak: the glibc build loads in musl programs too, where it is null.
extern "C" __attribute__((weak)) const char* gnu_get_libc_version(void) __THROW;
#endif

namespace rk8s {

struct LibcResolver {
  int (*getaddrinfo)(const char*, const char*, const struct addrinfo*, struct addrinfo**);
  void (*freeaddrinfo)(struct addrinfo*);
  struct hostent* (*gethostbyname)(const char*);
  struct hostent* (*gethostbyname2)(const char*, int);
  int (*gethostbyname_r)(const char*, struct hostent*, char*, size_t, struct hostent**, int*);
  int (*gethostbyname2_r)(const char*, int, struct hostent*, char*, size_t, struct hostent**,
                          int*);
#ifdef __GLIBC__
  int (*res_search)(const char*, int, int, unsigned char*, int);
  int (*res_nsearch)(res_state, const char*, int, int, unsigned char*, int);
#endif
};

// The next definitions after ours (next_symbol.h), looked up once.
const LibcResolver& libc_resolver();

// Once, before the first lookup: c-ares on our own allocator, and the
// release of the running libc told to the core.
void start_library();

// The release of the libc the process runs with (util/base.h): libc.cc
// asks the loaded libc, static/libc.cc what musl's own code does.
uint32_t detect_libc_release();

// A pure pass-through, read before anything else is touched: RESOLV_K8S=off,
// or the glibc build in a process whose libc is not glibc (a musl program
// given it), where the build loads but must not serve.
bool stepped_aside();

// RESOLV_K8S_DEBUG=1: each lookup's plan, queries, replies and outcome on stderr.
bool debug_on();

// stats.cc: RESOLV_K8S_STATS written while the process runs, at most
// every few seconds; called after each call.
void stats_tick();

// Runs a whole call, ours or libc's, and counts how long it took.
template <class Call>
auto timed(Call call) {
  uint64_t start = duration_start();
  auto result = call();
  count_duration(start);
  stats_tick();
  return result;
}

}  // namespace rk8s
