// SPDX-License-Identifier: Apache-2.0
// The HTTP endpoints (libevent's evhttp) on one loop: GET /health (the
// process answers), GET /ready (503 until it can serve) and GET /metrics
// (Prometheus text). The metrics address answers /metrics only (404
// elsewhere, as server/README.md says).
#pragma once

#include <event2/http.h>

#include <functional>
#include <string>

#include "server/config/config.h"
#include "server/net/loop.h"

namespace rk8s::server {

struct HttpHandlers {
  std::function<bool()> ready;
  std::function<std::string()> metrics;
};

class HttpServer {
 public:
  // Throws std::runtime_error when an address cannot be bound.
  HttpServer(Loop& loop, const std::optional<Endpoint>& health, const std::optional<Endpoint>& metrics,
             HttpHandlers handlers);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

 private:
  static void on_health(evhttp_request* req, void* arg);
  static void on_metrics(evhttp_request* req, void* arg);

  HttpHandlers handlers_;
  evhttp* health_ = nullptr;
  evhttp* metrics_ = nullptr;
};

}  // namespace rk8s::server
