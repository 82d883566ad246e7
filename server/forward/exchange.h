// SPDX-License-Identifier: Apache-2.0
// One query to one upstream, on the calling loop (exchange_udp.h,
// exchange_tcp.h): what it gives back, and what a reply must match. A
// reply counts only when it comes from the address and port asked with the
// query's ID and question; anything else is dropped and the wait goes on
// until the timeout.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "server/forward/forward_settings.h"
#include "server/net/client_share.h"
#include "server/net/loop.h"

namespace rk8s::server {

struct ExchangeResult {
  // no_socket: this process could not open a socket (out of descriptors or
  // memory), no fault of the upstream's.
  enum Status : uint8_t { ok, timeout, error, no_socket } status = error;
  std::vector<uint8_t> reply;
  std::string why;  // a connection's failure, for the log: "certificate not accepted: ..."
};
using ExchangeDone = std::function<void(ExchangeResult& result)>;

// Whose query it is, for the shares of the pooled connections
// (exchange_tcp.h): a client's, by address; the server's own question (a
// refresh) is the zero address's; a health probe is no one's and waits
// behind nothing.
struct QueryOwner {
  ClientKey client;
  bool probe = false;
};

// `query` to `to` over TCP or UDP, or over TLS when `to` says so (`tcp`
// then does not matter), for `owner`; `done` is called once, on `loop`.
void exchange(Loop& loop, const Upstream& to, bool tcp, std::vector<uint8_t> query,
              unsigned timeout_ms, const QueryOwner& owner, ExchangeDone done);

// The reply to `query`: QR set, the same ID, one question equal to the
// query's (names compared without regard to case).
bool answers_query(Bytes query, Bytes reply);

}  // namespace rk8s::server
