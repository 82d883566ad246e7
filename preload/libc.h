// SPDX-License-Identifier: Apache-2.0
// What the process had before us: libc's own entry points (libc_next.cc, or
// static/libc_renamed.cc in the static archive) and its release.
#pragma once

#include <netdb.h>
#include <resolv.h>
#include <stdint.h>

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

// The release of the libc the process runs with (util/base.h): libc_next.cc
// asks the loaded libc, static/libc_renamed.cc what musl's own code does.
uint32_t detect_libc_release();

}  // namespace rk8s
