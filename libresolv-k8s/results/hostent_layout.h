// SPDX-License-Identifier: Apache-2.0
// The struct hostent each libc builds into the caller's buffer for
// gethostbyname2_r, with its ERANGE protocol.
#pragma once

#include <netdb.h>

#include "util/ip.h"

namespace rk8s {

// What a hostent holds: addresses of `family` (h_length 4 or 16 bytes).
struct HostentParts {
  int family = AF_INET;
  const char* const* names = nullptr;  // glibc: the aliases, then h_name
  size_t name_count = 0;               // at least 1
  const IpAddr* addrs = nullptr;
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
