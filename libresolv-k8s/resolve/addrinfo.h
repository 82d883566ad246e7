// SPDX-License-Identifier: Apache-2.0
// getaddrinfo as the replaced libc answers it: its own checks (results/),
// /etc/hosts, DNS, the list.
#pragma once

#include <netdb.h>

#include "resolve/dns_step.h"

namespace rk8s {

// getaddrinfo(node, service, hints, res), or kLetLibcAnswer: the caller
// must hand the call to libc.
int resolve_addrinfo(const char* node, const char* service, const struct addrinfo* hints,
                     struct addrinfo** res, ExchangeFn exchange, ResolveTrace* trace);

}  // namespace rk8s
