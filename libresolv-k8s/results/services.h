// SPDX-License-Identifier: Apache-2.0
// Services: the (socktype, protocol, port) list a getaddrinfo result is
// expanded over.
#pragma once

#include "results/gai_steps.h"

namespace rk8s {

// The (socktype, protocol, port) list into req.servs; 0 or EAI_*. glibc:
// `num` is the service's number, or -1 for a name.
int glibc_services(GaiRequest& req, const char* service, int num, int socktype, int protocol);
int musl_services(GaiRequest& req, const char* service, int socktype, int protocol, int flags);

}  // namespace rk8s
