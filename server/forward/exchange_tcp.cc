// exchange_tcp: a connection per loop and upstream, kept while it is used
// and for a while after (CoreDNS keeps its pooled connections 10 s), with
// every query in flight on it matched to its reply by ID and question.
#include <map>
#include <memory>
#include <string>

#include "dns/wire.h"
#include "server/forward/exchange.h"
#include "server/net/tcp_message.h"
#include "util/random.h"

namespace rk8s::server {
namespace {

constexpr unsigned kIdleMs = 10000;

class Connection;
// The loop's connections, by upstream.
thread_local std::map<std::string, std::shared_ptr<Connection>>* pool;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Loop& loop, const Upstream& to) : loop_(loop), key_(to.text) {
    bev_ = bufferevent_socket_new(loop.base(), -1, BEV_OPT_CLOSE_ON_FREE);
    bufferevent_setcb(bev_, readable, nullptr, on_event, this);
    bufferevent_enable(bev_, EV_READ);
    sockaddr_in6 sa;
    socklen_t len = ip_to_sockaddr(to.address, to.port, &sa);
    if (bufferevent_socket_connect(bev_, reinterpret_cast<sockaddr*>(&sa), int(len)) != 0) broken_ = true;
    idle_ = evtimer_new(loop.base(), on_idle, this);
  }
  ~Connection() {
    event_free(idle_);
    bufferevent_free(bev_);
  }
  bool broken() const { return broken_; }

  void send(std::vector<uint8_t> query, unsigned timeout_ms, ExchangeDone done) {
    evtimer_del(idle_);
    // IDs are unique among the queries in flight on this connection.
    uint16_t id = load16(query.data());
    while (pending_.count(id)) id = random_query_id();
    store16(query.data(), id);
    Pending& p = pending_[id];
    p.query = query;
    p.done = std::move(done);
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
      self->complete(it->first, r);
    }
  }

  static void on_event(bufferevent*, short what, void* arg) {
    if (what & BEV_EVENT_CONNECTED) return;
    static_cast<Connection*>(arg)->fail_all();
  }

  static void on_timeout(evutil_socket_t, short, void* arg) {
    std::unique_ptr<TimeoutArg> t(static_cast<TimeoutArg*>(arg));
    if (auto self = t->conn.lock()) {
      ExchangeResult r{ExchangeResult::timeout, {}};
      self->complete(t->id, r);
    }
  }

  static void on_idle(evutil_socket_t, short, void* arg) {
    static_cast<Connection*>(arg)->forget();
  }

  void complete(uint16_t id, ExchangeResult& r) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
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
    p.done(r);
  }

  // Closed or reset: every query in flight fails; the next one reconnects.
  void fail_all() {
    broken_ = true;
    auto self = shared_from_this();
    forget();
    while (!pending_.empty()) {
      ExchangeResult r{ExchangeResult::error, {}};
      complete(pending_.begin()->first, r);
    }
  }

  void forget() {
    if (!pool) return;
    auto it = pool->find(key_);
    if (it != pool->end() && it->second.get() == this) pool->erase(it);
  }

  Loop& loop_;
  std::string key_;
  bufferevent* bev_;
  event* idle_;
  bool broken_ = false;
  std::map<uint16_t, Pending> pending_;
};

}  // namespace

void exchange_tcp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  ExchangeDone done) {
  if (!pool) pool = new std::map<std::string, std::shared_ptr<Connection>>;
  std::shared_ptr<Connection>& conn = (*pool)[to.text];
  if (!conn || conn->broken()) conn = std::make_shared<Connection>(loop, to);
  std::shared_ptr<Connection> keep = conn;
  if (keep->broken()) {
    pool->erase(to.text);
    ExchangeResult r{ExchangeResult::error, {}};
    return done(r);
  }
  keep->send(std::move(query), timeout_ms, std::move(done));
}

}  // namespace rk8s::server
