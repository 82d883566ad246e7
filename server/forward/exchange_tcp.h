// SPDX-License-Identifier: Apache-2.0
// One query to one upstream over TCP: a connection per loop and upstream,
// kept while it is used and for a while after (CoreDNS keeps its pooled
// connections 10 s), with every query in flight on it matched to its reply
// by ID and question. An upstream may close a connection whenever it likes
// (RFC 7766 section 6.2.3): the queries it leaves unanswered on one that
// had served go again, once, on a new connection.
#pragma once

#include "server/forward/exchange.h"

namespace rk8s::server {

void exchange_tcp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  ExchangeDone done);

}  // namespace rk8s::server
