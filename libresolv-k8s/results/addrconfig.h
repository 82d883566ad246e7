// SPDX-License-Identifier: Apache-2.0
// AI_ADDRCONFIG: which families the host has, as each libc decides it.
#pragma once

#include "results/gai_steps.h"

namespace rk8s {

// Narrows req.family; 0 or EAI_*.
int glibc_addrconfig(GaiRequest& req);
int musl_addrconfig(GaiRequest& req);

}  // namespace rk8s
