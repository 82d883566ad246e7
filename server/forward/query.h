// SPDX-License-Identifier: Apache-2.0
// The queries the server sends upstream: each with a fresh random ID,
// recursion desired, EDNS0 with our UDP size and the client's DO and CD.
#pragma once

#include <vector>

#include "server/model/source.h"

namespace rk8s::server {

std::vector<uint8_t> upstream_query(const Ask& ask);
// ". IN NS", the health check (CoreDNS's).
std::vector<uint8_t> probe_query();

}  // namespace rk8s::server
