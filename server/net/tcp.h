// SPDX-License-Identifier: Apache-2.0
// A worker loop's TCP listener and its client connections: pipelined
// queries answered in order; at most a set number of connections in the
// process, and from one client address its share of them
// (client_share.h); each closed after an idle time without a whole query.
// A connection is not read while max_queries of its queries are
// unanswered or kReadPause bytes of replies wait for the client to read
// them; past kMaxUnread, or with replies unread for the idle time, it is
// closed.
#pragma once

#include <event2/listener.h>

#include <atomic>
#include <memory>

#include "server/model/warn.h"
#include "server/net/accept_pause.h"
#include "server/net/loop.h"
#include "server/net/serve.h"

namespace rk8s::server {

struct TcpLimits {
  size_t max_clients = 256;  // connections open at once, all threads
  size_t max_per_client = 64;  // of them from one client address
  size_t max_queries = 16;   // unanswered queries on one connection
  unsigned idle_seconds = 10;
  bool nagle = false;  // a test's stand-in for servers without TCP_NODELAY
};

class TcpListener {
 public:
  static constexpr size_t kReadPause = 16 << 10;
  // Room for the largest reply on top of kReadPause.
  static constexpr size_t kMaxUnread = kReadPause + 65537;

  // `worker`: the loop's index among the workers (Client::worker).
  TcpListener(Loop& loop, int fd, Serve serve, const TcpLimits& limits, Warn warn, size_t worker = 0);
  ~TcpListener();
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  // SIGTERM: no new connection (the listening socket leaves its
  // SO_REUSEPORT group); open ones finish what they were asked.
  void stop_accepting();

  // Connections open now, the most of them from one address, those
  // refused at a limit, and those closed for replies left unread (all
  // threads).
  static size_t open_connections();
  static size_t most_per_client();
  static uint64_t refused_connections();
  static uint64_t unread_closes();

 private:
  static void accepted(evconnlistener*, evutil_socket_t fd, sockaddr* addr, int len, void* arg);

  Loop& loop_;
  size_t worker_;
  Serve serve_;
  TcpLimits limits_;
  evconnlistener* listener_;
  std::unique_ptr<AcceptPause> pause_;
};

}  // namespace rk8s::server
