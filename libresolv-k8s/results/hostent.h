// gethostbyname2_r as the replaced libc answers it, and the struct hostent
// each libc builds into the caller's buffer, with its ERANGE protocol.
//
// glibc 2.36: numeric names first (__nss_hostname_digits_dots), then the
// `hosts:` sources: files (one family, aliases), dns (gethostbyname3_r: one
// walk of A or AAAA queries; h_name the last name getanswer_r stored, the
// question and CNAME targets before it in h_aliases). musl 1.2.3:
// __lookup_name, as getaddrinfo asks it; h_aliases = {canon, name if it
// differs}.
#pragma once

#include <netdb.h>

#include "resolve/resolve.h"

// glibc's values; musl has neither, and never sets them.
#ifndef NETDB_INTERNAL
#define NETDB_INTERNAL (-1)
#endif
#ifndef NETDB_SUCCESS
#define NETDB_SUCCESS 0
#endif

namespace rk8s {

// Returned instead of the function's result: libc must answer the call.
constexpr int kHostentLibc = -1;

// gethostbyname2_r(name, af, h, buf, len, result, h_errnop): returns 0 or
// the errno value the libc returns, with *result and *h_errnop as it leaves
// them; or kHostentLibc.
int resolve_hostent(const char* name, int af, struct hostent* h, char* buf, size_t len,
                    struct hostent** result, int* h_errnop, ExchangeFn exchange,
                    ResolveTrace* trace);

// What a hostent holds. Addresses are h_length (4 or 16) bytes each.
struct HostentParts {
  int family = AF_INET;
  const char* const* names = nullptr;  // glibc: the aliases, then h_name
  size_t name_count = 0;               // at least 1
  const uint8_t (*addrs)[16] = nullptr;
  size_t addr_count = 0;
};

// The layouts. Each returns 0, or ERANGE when `len` is too small (then
// *h is partly written, as the libc leaves it).
// glibc's nss_dns (getanswer_r's alloc_buffer): names, 4-aligned addresses,
// then the pointer arrays. Used for /etc/hosts answers too.
int glibc_hostent(const HostentParts& p, struct hostent* h, char* buf, size_t len);
// glibc's digits_dots: the address, its list, an empty alias list, the
// name, unaligned.
int glibc_numeric_hostent(int family, const uint8_t* addr, const char* name, struct hostent* h,
                          char* buf, size_t len);
// musl: names[0] = the canonical name, names[1] = the name asked for.
int musl_hostent(const HostentParts& p, struct hostent* h, char* buf, size_t len);

}  // namespace rk8s
