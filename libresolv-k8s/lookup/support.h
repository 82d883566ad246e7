// SPDX-License-Identifier: Apache-2.0
// Which servers understand the autopath option, remembered for the whole
// process and shared by all threads: a "no" and a "formerr" are forgotten
// after a while, so a server that gains support is found again.
#pragma once

#include "util/ip.h"

namespace rk8s {

enum class Support : uint8_t { unknown, yes, no, formerr };

// "unknown", "yes", "no", "formerr".
const char* support_name(Support s);

Support server_support(const IpAddr& server);
void remember_support(const IpAddr& server, Support s);

// What the process knows now of the servers it asked (for the counters).
struct ServerSupport {
  IpAddr server;
  Support support;
};
size_t known_support(ServerSupport* out, size_t cap);

}  // namespace rk8s
