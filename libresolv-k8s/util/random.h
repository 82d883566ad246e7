// SPDX-License-Identifier: Apache-2.0
// Query IDs: the client's and the server's. c-ares 1.18.1's own are weak
// (CVE-2023-31147); these come from getrandom, and from a mix of the
// clock, the pid and a counter when getrandom cannot answer at once.
#pragma once

#include "util/base.h"

namespace rk8s {

uint16_t random_query_id();

}  // namespace rk8s
