// SPDX-License-Identifier: Apache-2.0
// The HTTP endpoints on one loop: GET /health (the process answers), GET
// /ready (503 until it can serve) and GET /metrics (Prometheus text). The
// metrics address answers /metrics only (404 elsewhere, as
// server/README.md says). Bounded as anything any pod can reach is: at most
// max_clients connections on both addresses together, and from one client
// address the least of max_per_client and its share of them
// (client_share.h); beyond, a new one takes the place of the one that has
// waited longest without sending a whole request (its client's own, at
// its share), so that a probe gets through connections left idle, and
// while every one is being answered, none is accepted. Each is closed
// `timeout_seconds` after it opened without a whole request, however the
// request trickles in, or with its reply unread that long;
// requests of kMaxRequest bytes at most (431 beyond), no body, GET and
// HEAD only (405), one request a connection.
// Not libevent's evhttp: it cannot bound its connections (2.1 has no
// limit, and no hook to count them by).
#pragma once

#include <event2/bufferevent.h>
#include <event2/listener.h>

#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/model/warn.h"
#include "server/net/accept_pause.h"
#include "server/net/client_share.h"
#include "server/net/loop.h"
#include "server/settings/address.h"

namespace rk8s::server {

struct HttpHandlers {
  std::function<bool()> ready;
  std::function<std::string()> metrics;
};

struct HttpLimits {
  size_t max_clients = 16;
  unsigned timeout_seconds = 5;
  size_t max_per_client = 4;
};

class HttpServer {
 public:
  static constexpr size_t kMaxRequest = 8192;

  // Throws std::runtime_error when an address cannot be bound.
  HttpServer(Loop& loop, const std::optional<Endpoint>& health, const std::optional<Endpoint>& metrics,
             HttpHandlers handlers, const HttpLimits& limits, Warn warn);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  size_t open_connections() const { return open_.size(); }
  size_t most_per_client() const { return slots_.most(); }
  // Connections closed to make room for newer ones, and new ones closed
  // at once: their client at its share, its own all being answered.
  uint64_t evicted() const { return evicted_; }
  uint64_t refused() const { return refused_; }

 private:
  struct Listener;
  class Connection;

  void listen(Loop& loop, const Endpoint& at, bool metrics_only, const Warn& warn);
  static void accepted(evconnlistener*, evutil_socket_t fd, sockaddr* addr, int, void* arg);
  void opened(Connection* c);
  void closed(Connection* c);
  void hold_or_release();
  // The status line's code and reason, and the body, for `path`.
  struct Reply {
    int code;
    const char* reason;
    std::string body;
    const char* type = "text/plain";
  };
  Reply answer(const std::string& path, bool metrics_only) const;

  HttpHandlers handlers_;
  HttpLimits limits_;
  Loop& loop_;
  std::vector<std::unique_ptr<Listener>> listeners_;
  std::list<Connection*> open_;  // the oldest first
  ClientSlots slots_;
  uint64_t evicted_ = 0, refused_ = 0;
};

}  // namespace rk8s::server
