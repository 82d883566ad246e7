// SPDX-License-Identifier: Apache-2.0
// One query to one upstream over UDP: a socket of its own, connected, so a
// fresh source port, and the kernel drops datagrams from anyone else.
#pragma once

#include "server/forward/exchange.h"

namespace rk8s::server {

void exchange_udp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  ExchangeDone done);

}  // namespace rk8s::server
