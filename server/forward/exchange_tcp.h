// SPDX-License-Identifier: Apache-2.0
// One query to one upstream over TCP, or over TLS (RFC 7858; the TLS side
// in exchange_tls.h). A loop keeps its connections to each upstream while
// they are used and for a while after (CoreDNS keeps its pooled
// connections 10 s): up to kMaxConnections, each with up to kMaxInFlight
// queries written and unanswered, every reply matched to its query by ID
// and question, in any order (RFC 7766 section 6.2.1.1). A new connection
// is opened when every one is full. The slots (kSlots, every connection's)
// and as many places to wait for one are shared out by client as the
// flights are (net/client_share.h): while n clients hold some, none holds
// more than 1/(n+1) of either, so a client whose names the upstream never
// answers leaves room for every other. A query is written when its client
// is within its share and a connection has room, else it waits (its
// client's older ones first) for its timeout at most, or fails at once
// past its client's share of the places; its timeout on the connection
// counts from when it is written. A health probe is no one's: it is
// written at once, past kMaxInFlight when every connection is full. One that
// fails to open (refused, its handshake failed or outlasted the first
// query's timeout) holds the upstream's next back, 100 ms doubling to 5 s
// while they keep failing; meanwhile its queries fail at once with why.
// An upstream may close a connection whenever it likes (RFC 7766 section
// 6.2.3): the queries it leaves unanswered on one that had served go
// again, once, on a new connection. A query that times out on a
// connection that read nothing since it was written takes the connection
// out of use: it serves what it holds, then closes.
#pragma once

#include "server/forward/exchange.h"

namespace rk8s::server {

void exchange_tcp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  const QueryOwner& owner, ExchangeDone done);

}  // namespace rk8s::server
