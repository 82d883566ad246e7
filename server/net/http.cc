// SPDX-License-Identifier: Apache-2.0
#include "server/net/http.h"

#include <event2/buffer.h>
#include <sys/socket.h>

#include <cstring>
#include <stdexcept>

#include "server/net/socket.h"

namespace rk8s::server {
namespace {

evhttp* listen_http(Loop& loop, const Endpoint& at, void (*cb)(evhttp_request*, void*), void* arg) {
  evhttp* http = evhttp_new(loop.base());
  if (!http || evhttp_accept_socket(http, open_socket(at, SOCK_STREAM)) != 0)
    throw std::runtime_error("http " + at.text + ": cannot listen");
  evhttp_set_gencb(http, cb, arg);
  return http;
}

void send_text(evhttp_request* req, int code, const char* reason, const std::string& body,
               const char* type) {
  evbuffer* out = evbuffer_new();
  evbuffer_add(out, body.data(), body.size());
  evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", type);
  evhttp_send_reply(req, code, reason, out);
  evbuffer_free(out);
}

const char kPrometheus[] = "text/plain; version=0.0.4";

}  // namespace

HttpServer::HttpServer(Loop& loop, const std::optional<Endpoint>& health,
                       const std::optional<Endpoint>& metrics, HttpHandlers handlers)
    : handlers_(std::move(handlers)) {
  if (health) health_ = listen_http(loop, *health, on_health, this);
  // One address for both: the health server answers /metrics too.
  if (metrics && !(health && health->text == metrics->text))
    metrics_ = listen_http(loop, *metrics, on_metrics, this);
}

HttpServer::~HttpServer() {
  if (health_) evhttp_free(health_);
  if (metrics_) evhttp_free(metrics_);
}

void HttpServer::on_health(evhttp_request* req, void* arg) {
  HttpServer& self = *static_cast<HttpServer*>(arg);
  const char* path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
  path = path ? path : "/";
  if (strcmp(path, "/health") == 0) return send_text(req, 200, "OK", "OK\n", "text/plain");
  if (strcmp(path, "/ready") == 0) {
    if (self.handlers_.ready()) return send_text(req, 200, "OK", "ready\n", "text/plain");
    return send_text(req, 503, "Service Unavailable", "not ready\n", "text/plain");
  }
  if (strcmp(path, "/metrics") == 0)
    return send_text(req, 200, "OK", self.handlers_.metrics(), kPrometheus);
  send_text(req, 404, "Not Found", "not found\n", "text/plain");
}

void HttpServer::on_metrics(evhttp_request* req, void* arg) {
  HttpServer& self = *static_cast<HttpServer*>(arg);
  const char* path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
  if (path && strcmp(path, "/metrics") == 0) return send_text(req, 200, "OK", self.handlers_.metrics(), kPrometheus);
  send_text(req, 404, "Not Found", "not found: /metrics\n", "text/plain");
}

}  // namespace rk8s::server
