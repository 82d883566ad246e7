// SPDX-License-Identifier: Apache-2.0
#include "server/net/http.h"

#include <event2/buffer.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "server/net/socket.h"

namespace rk8s::server {

struct HttpServer::Listener {
  HttpServer* server;
  bool metrics_only;
  evconnlistener* listener;
  std::unique_ptr<AcceptPause> pause;
  ~Listener() {
    pause.reset();
    evconnlistener_free(listener);
  }
};

// One connection, one request: read to the end of its headers, answer,
// close once the answer is written.
class HttpServer::Connection {
 public:
  Connection(HttpServer& server, bool metrics_only, event_base* base, evutil_socket_t fd, const ClientKey& client)
      : server_(server), metrics_only_(metrics_only), client_(client) {
    bev_ = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
    timeval limit{long(server.limits_.timeout_seconds), 0};
    bufferevent_set_timeouts(bev_, nullptr, &limit);
    // The whole request within the limit: bytes that trickle in do not
    // put it off.
    deadline_ = evtimer_new(base, expired, this);
    evtimer_add(deadline_, &limit);
    bufferevent_setcb(bev_, readable, written, failed, this);
    bufferevent_enable(bev_, EV_READ);
    server_.opened(this);
  }
  ~Connection() {
    event_free(deadline_);
    bufferevent_free(bev_);
    server_.closed(this);
  }
  bool answering() const { return answered_; }
  const ClientKey& client() const { return client_; }

 private:
  static void readable(bufferevent*, void* arg) { static_cast<Connection*>(arg)->read_request(); }
  static void written(bufferevent*, void* arg) {
    auto* self = static_cast<Connection*>(arg);
    if (self->answered_) delete self;
  }
  static void failed(bufferevent*, short, void* arg) { delete static_cast<Connection*>(arg); }
  static void expired(evutil_socket_t, short, void* arg) { delete static_cast<Connection*>(arg); }

  void read_request() {
    if (answered_) return;
    evbuffer* in = bufferevent_get_input(bev_);
    evbuffer_ptr end = evbuffer_search(in, "\r\n\r\n", 4, nullptr);
    if (end.pos < 0) {
      if (evbuffer_get_length(in) > kMaxRequest) reply("HTTP/1.1", {431, "Request Header Fields Too Large", ""}, false);
      return;
    }
    if (size_t(end.pos) + 4 > kMaxRequest)
      return reply("HTTP/1.1", {431, "Request Header Fields Too Large", ""}, false);
    size_t eol = evbuffer_search_eol(in, nullptr, nullptr, EVBUFFER_EOL_CRLF).pos;
    std::string line(eol, '\0');
    evbuffer_copyout(in, line.data(), eol);
    // METHOD SP TARGET SP HTTP/1.x
    size_t a = line.find(' '), b = line.rfind(' ');
    std::string version = b != std::string::npos ? line.substr(b + 1) : "";
    if (a == std::string::npos || a == b || (version != "HTTP/1.0" && version != "HTTP/1.1"))
      return reply("HTTP/1.1", {400, "Bad Request", ""}, false);
    std::string method = line.substr(0, a), target = line.substr(a + 1, b - a - 1);
    if (method != "GET" && method != "HEAD") return reply(version, {405, "Method Not Allowed", ""}, false);
    std::string path = target.substr(0, target.find('?'));
    reply(version, server_.answer(path, metrics_only_), method == "GET");
  }

  void reply(const std::string& version, const Reply& r, bool body) {
    answered_ = true;
    evtimer_del(deadline_);
    server_.hold_or_release();
    bufferevent_disable(bev_, EV_READ);
    std::string head = version + " " + std::to_string(r.code) + " " + r.reason + "\r\nContent-Type: " + r.type +
                       "\r\nContent-Length: " + std::to_string(r.body.size()) + "\r\nConnection: close\r\n\r\n";
    evbuffer* out = bufferevent_get_output(bev_);
    evbuffer_add(out, head.data(), head.size());
    if (body) evbuffer_add(out, r.body.data(), r.body.size());
  }

  HttpServer& server_;
  bool metrics_only_;
  ClientKey client_;
  bufferevent* bev_;
  event* deadline_;
  bool answered_ = false;
};

HttpServer::HttpServer(Loop& loop, const std::optional<Endpoint>& health,
                       const std::optional<Endpoint>& metrics, HttpHandlers handlers,
                       const HttpLimits& limits, Warn warn)
    : handlers_(std::move(handlers)), limits_(limits), loop_(loop) {
  if (health) listen(loop, *health, false, warn);
  // One address for both: the health server answers /metrics too.
  if (metrics && !(health && health->text == metrics->text)) listen(loop, *metrics, true, warn);
}

HttpServer::~HttpServer() = default;

void HttpServer::listen(Loop& loop, const Endpoint& at, bool metrics_only, const Warn& warn) {
  auto l = std::make_unique<Listener>();
  l->server = this;
  l->metrics_only = metrics_only;
  l->listener = evconnlistener_new(loop.base(), accepted, l.get(), LEV_OPT_CLOSE_ON_FREE, -1,
                                   open_socket(at, SOCK_STREAM));
  if (!l->listener) throw std::runtime_error("http " + at.text + ": cannot listen");
  l->pause = std::make_unique<AcceptPause>(loop, l->listener,
                                           std::string(metrics_only ? "metrics " : "health ") + at.text, warn);
  listeners_.push_back(std::move(l));
}

void HttpServer::accepted(evconnlistener*, evutil_socket_t fd, sockaddr* addr, int, void* arg) {
  Listener& l = *static_cast<Listener*>(arg);
  HttpServer& self = *l.server;
  ClientKey client = ClientKey::of(addr);
  // At a bound the one idle the longest makes room: anyone's at
  // max_clients, the client's own at its share; with none, it is refused.
  using Refusal = ClientSlots::Refusal;
  const HttpLimits& limits = self.limits_;
  for (Refusal r; (r = self.slots_.take(client, limits.max_clients, limits.max_per_client)) != Refusal::none;) {
    auto idle = std::find_if(self.open_.begin(), self.open_.end(), [&](Connection* c) {
      return !c->answering() && (r == Refusal::bound || c->client() == client);
    });
    if (idle == self.open_.end()) {
      self.refused_++;
      close(fd);
      return;
    }
    self.evicted_++;
    delete *idle;
  }
  new Connection(self, l.metrics_only, self.loop_.base(), fd, client);
}

void HttpServer::opened(Connection* c) {
  open_.push_back(c);
  hold_or_release();
}

void HttpServer::closed(Connection* c) {
  open_.remove(c);
  slots_.give(c->client());
  hold_or_release();
}

// Accepting is held while every connection is being answered at the limit:
// none could make room.
void HttpServer::hold_or_release() {
  bool hold = open_.size() >= limits_.max_clients &&
              std::none_of(open_.begin(), open_.end(), [](Connection* c) { return !c->answering(); });
  for (auto& l : listeners_) hold ? l->pause->hold() : l->pause->release();
}

HttpServer::Reply HttpServer::answer(const std::string& path, bool metrics_only) const {
  if (path == "/metrics") return {200, "OK", handlers_.metrics(), "text/plain; version=0.0.4"};
  if (metrics_only) return {404, "Not Found", "not found: /metrics\n"};
  if (path == "/health") return {200, "OK", "OK\n"};
  if (path == "/ready")
    return handlers_.ready() ? Reply{200, "OK", "ready\n"} : Reply{503, "Service Unavailable", "not ready\n"};
  return {404, "Not Found", "not found\n"};
}

}  // namespace rk8s::server
