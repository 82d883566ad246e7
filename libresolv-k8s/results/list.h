// SPDX-License-Identifier: Apache-2.0
// The result list in each libc's own layout, so that either freeaddrinfo
// frees it.
#pragma once

#include "results/gai_steps.h"

namespace rk8s {

// The malloc'd list in the libc's layout, addresses times services (glibc
// sorts the entries); EAI_NONAME when there is no address.
int build_list(const GaiRequest& req, const IpAddr* addrs, size_t n, const char* canon,
               struct addrinfo** res);

// Frees lists made in `dialect`'s layout (and the libc's own). glibc's
// accepts NULL like glibc; musl's also accepts NULL, unlike musl.
void gai_free(Dialect dialect, struct addrinfo* ai);

}  // namespace rk8s
