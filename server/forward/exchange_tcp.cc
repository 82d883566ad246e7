// SPDX-License-Identifier: Apache-2.0
#include "server/forward/exchange_tcp.h"

#include <cerrno>
#include <map>
#include <memory>
#include <string>

#include "libresolv-k8s/dns/wire.h"
#include "server/net/socket.h"
#include "server/net/tcp_message.h"
#include "libresolv-k8s/util/random.h"

namespace rk8s::server {
namespace {

constexpr unsigned kIdleMs = 10000;

class Connection;
// The loop's connections, by upstream.
thread_local std::map<std::string, std::shared_ptr<Connection>>* pool;

void send_pooled(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                 ExchangeDone done, bool again);

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Loop& loop, const Upstream& to) : loop_(loop), to_(to) {
    bev_ = bufferevent_socket_new(loop.base(), -1, BEV_OPT_CLOSE_ON_FREE);
    bufferevent_setcb(bev_, readable, nullptr, on_event, this);
    bufferevent_enable(bev_, EV_READ);
    sockaddr_in6 sa;
    socklen_t len = ip_to_sockaddr(to.address, to.port, &sa);
    if (bufferevent_socket_connect(bev_, reinterpret_cast<sockaddr*>(&sa), int(len)) != 0) {
      broken_ = true;
      no_socket_ = errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM;
    } else {
      no_delay(bufferevent_getfd(bev_));
    }
    idle_ = evtimer_new(loop.base(), on_idle, this);
  }
  ~Connection() {
    event_free(idle_);
    bufferevent_free(bev_);
  }
  bool broken() const { return broken_; }
  bool no_socket() const { return no_socket_; }

  // `again`: the query was left unanswered by a connection closed before.
  void send(std::vector<uint8_t> query, unsigned timeout_ms, ExchangeDone done, bool again) {
    evtimer_del(idle_);
    // IDs are unique among the queries in flight on this connection.
    uint16_t id = load16(query.data());
    while (pending_.count(id)) id = random_query_id();
    store16(query.data(), id);
    Pending& p = pending_[id];
    p.query = query;
    p.done = std::move(done);
    p.timeout_ms = timeout_ms;
    p.again = again;
    TimeoutArg* arg = new TimeoutArg{weak_from_this(), id};
    p.timer = evtimer_new(loop_.base(), on_timeout, arg);
    timeval tv{long(timeout_ms / 1000), long(timeout_ms % 1000) * 1000};
    evtimer_add(p.timer, &tv);
    put_tcp_message(bev_, query);
  }

 private:
  struct Pending {
    std::vector<uint8_t> query;
    ExchangeDone done;
    unsigned timeout_ms;
    bool again;
    event* timer = nullptr;
  };
  struct TimeoutArg {
    std::weak_ptr<Connection> conn;
    uint16_t id;
  };

  static void readable(bufferevent*, void* arg) {
    auto self = static_cast<Connection*>(arg)->shared_from_this();
    evbuffer* in = bufferevent_get_input(self->bev_);
    std::vector<uint8_t> msg;
    while (take_tcp_message(in, msg)) {
      if (msg.size() < 2) continue;
      auto it = self->pending_.find(load16(msg.data()));
      if (it == self->pending_.end() ||
          !answers_query(Bytes{it->second.query.data(), it->second.query.size()},
                         Bytes{msg.data(), msg.size()}))
        continue;
      ExchangeResult r{ExchangeResult::ok, std::move(msg)};
      self->served_ = true;
      self->take(it->first).done(r);
    }
    // More replies to come on it (the AAAA after the A): the upstream may
    // be holding them for our ACK.
    if (!self->pending_.empty()) quick_ack(bufferevent_getfd(self->bev_));
  }

  static void on_event(bufferevent*, short what, void* arg) {
    if (what & BEV_EVENT_CONNECTED) return;
    static_cast<Connection*>(arg)->fail_all();
  }

  static void on_timeout(evutil_socket_t, short, void* arg) {
    std::unique_ptr<TimeoutArg> t(static_cast<TimeoutArg*>(arg));
    if (auto self = t->conn.lock(); self && self->pending_.count(t->id)) {
      ExchangeResult r{ExchangeResult::timeout, {}};
      self->take(t->id).done(r);
    }
  }

  static void on_idle(evutil_socket_t, short, void* arg) {
    static_cast<Connection*>(arg)->forget();
  }

  // The query `id`, no longer in flight here; it must be.
  Pending take(uint16_t id) {
    auto it = pending_.find(id);
    Pending p = std::move(it->second);
    pending_.erase(it);
    if (event_pending(p.timer, EV_TIMEOUT, nullptr)) {
      // The timer's argument is freed here, since it will not fire.
      delete static_cast<TimeoutArg*>(event_get_callback_arg(p.timer));
    }
    event_free(p.timer);
    if (pending_.empty() && !broken_) {
      timeval tv{kIdleMs / 1000, 0};
      evtimer_add(idle_, &tv);
    }
    return p;
  }

  // Closed or reset: the next query reconnects. What was in flight goes
  // again on a new connection if this one had served and it is the
  // query's first; else it fails.
  void fail_all() {
    broken_ = true;
    auto self = shared_from_this();
    forget();
    while (!pending_.empty()) {
      Pending p = take(pending_.begin()->first);
      if (served_ && !p.again) {
        send_pooled(loop_, to_, std::move(p.query), p.timeout_ms, std::move(p.done), true);
        continue;
      }
      ExchangeResult r{ExchangeResult::error, {}};
      p.done(r);
    }
  }

  void forget() {
    if (!pool) return;
    auto it = pool->find(to_.text);
    if (it != pool->end() && it->second.get() == this) pool->erase(it);
  }

  Loop& loop_;
  Upstream to_;
  bufferevent* bev_;
  event* idle_;
  bool broken_ = false;
  bool no_socket_ = false;  // broken for want of a descriptor or memory
  bool served_ = false;  // a reply came on it
  std::map<uint16_t, Pending> pending_;
};

void send_pooled(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                 ExchangeDone done, bool again) {
  if (!pool) pool = new std::map<std::string, std::shared_ptr<Connection>>;
  std::shared_ptr<Connection>& conn = (*pool)[to.text];
  if (!conn || conn->broken()) conn = std::make_shared<Connection>(loop, to);
  std::shared_ptr<Connection> keep = conn;
  if (keep->broken()) {
    pool->erase(to.text);
    ExchangeResult r{keep->no_socket() ? ExchangeResult::no_socket : ExchangeResult::error, {}};
    return done(r);
  }
  keep->send(std::move(query), timeout_ms, std::move(done), again);
}

}  // namespace

void exchange_tcp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  ExchangeDone done) {
  send_pooled(loop, to, std::move(query), timeout_ms, std::move(done), false);
}

}  // namespace rk8s::server
