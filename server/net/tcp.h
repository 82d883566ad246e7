// SPDX-License-Identifier: Apache-2.0
// A worker loop's TCP listener and its client connections: any number of
// pipelined queries per connection, answered in order; at most a set
// number of connections in the process, each closed after an idle time.
#pragma once

#include <event2/listener.h>

#include <atomic>

#include "server/net/loop.h"
#include "server/net/serve.h"

namespace rk8s::server {

struct TcpLimits {
  size_t max_clients = 1000;  // connections open at once, all threads
  unsigned idle_seconds = 10;
  bool nagle = false;  // a test's stand-in for servers without TCP_NODELAY
};

class TcpListener {
 public:
  TcpListener(Loop& loop, int fd, Serve serve, const TcpLimits& limits);
  ~TcpListener();
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  // SIGTERM: no new connection (the listening socket leaves its
  // SO_REUSEPORT group); open ones finish what they were asked.
  void stop_accepting();

  // Connections open now, and those refused at the limit (all threads).
  static size_t open_connections();
  static uint64_t refused_connections();

 private:
  static void accepted(evconnlistener*, evutil_socket_t fd, sockaddr* addr, int len, void* arg);

  Loop& loop_;
  Serve serve_;
  TcpLimits limits_;
  evconnlistener* listener_;
};

}  // namespace rk8s::server
