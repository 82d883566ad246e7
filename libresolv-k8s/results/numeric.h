// SPDX-License-Identifier: Apache-2.0
// Hosts that need no lookup: address literals and node NULL.
#pragma once

#include "results/gai_steps.h"

namespace rk8s {

// glibc (text_to_binary_address): 0 with `found` set when `name` is an
// address, else 0 or EAI_*. musl (__lookup_ipliteral): 1 when numeric, 0
// when not, or EAI_*.
int glibc_numeric(const GaiRequest& req, const char* name, IpAddr& a, bool& found);
int musl_numeric(const char* name, int family, uint32_t release, IpAddr& a);
// The addresses for node NULL: glibc lists IPv6 first, musl IPv4 first.
size_t wildcard_addrs(const GaiRequest& req, int family, IpAddr (&out)[2]);

}  // namespace rk8s
