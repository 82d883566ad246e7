// SPDX-License-Identifier: Apache-2.0
// gethostbyname2_r as the replaced libc answers it.
#pragma once

#include <netdb.h>

#include "resolve/dns_step.h"

// glibc's values; musl has neither, and never sets them.
#ifndef NETDB_INTERNAL
#define NETDB_INTERNAL (-1)
#endif
#ifndef NETDB_SUCCESS
#define NETDB_SUCCESS 0
#endif

namespace rk8s {

// One gethostbyname2_r(name, af, h, buf, len, result, herr) call, and how
// its DNS step runs: the transport, and the debug log's record (null: none).
struct HostentRequest {
  const char* name;
  int af;
  struct hostent* h;
  char* buf;
  size_t len;
  struct hostent** result;
  int* herr;
  ExchangeFn exchange;
  ResolveTrace* trace;
};

// gethostbyname2_r: 0 or the errno value the libc returns, with *result
// and *herr as it leaves them; or kHostentLibc: libc must answer the call.
//
// glibc 2.36: numeric names first (__nss_hostname_digits_dots), then the
// `hosts:` sources: files (one family, aliases), dns (gethostbyname3_r: one
// walk of A or AAAA queries; h_name the last name getanswer_r stored, the
// question and CNAME targets before it in h_aliases). musl 1.2.3:
// __lookup_name, as getaddrinfo asks it; h_aliases = {canon, name if it
// differs}.
constexpr int kHostentLibc = -1;
int resolve_hostent(const HostentRequest& req);

}  // namespace rk8s
