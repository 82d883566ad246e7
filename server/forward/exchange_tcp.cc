// SPDX-License-Identifier: Apache-2.0
#include "server/forward/exchange_tcp.h"

#include <event2/bufferevent_ssl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include "libresolv-k8s/dns/wire.h"
#include "libresolv-k8s/util/random.h"
#include "server/forward/exchange_tls.h"
#include "server/forward/metrics.h"
#include "server/net/socket.h"
#include "server/net/tcp_message.h"

namespace rk8s::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned kIdleMs = 10000;
constexpr size_t kMaxConnections = 4;  // to one upstream, from one loop
constexpr size_t kMaxInFlight = 64;    // queries written and unanswered on one connection
constexpr unsigned kBackoffMinMs = 100;
constexpr unsigned kBackoffMaxMs = 5000;

class Connection;

// What a loop holds of one upstream: its connections, when the next may
// be opened after some failed to, and the session TLS may resume.
struct Peer {
  std::vector<std::shared_ptr<Connection>> connections;
  unsigned failures = 0;  // connections that failed to open, in a row
  Clock::time_point retry_at{};
  std::string why;  // the last failure
  bool is_tls = false;
  std::weak_ptr<const TlsConfig> tls;  // the configuration's, while in use
  TlsResume resume;

  void failed_to_open(const Upstream& to, const char* reason, std::string what) {
    failures++;
    unsigned backoff = std::min<unsigned>(kBackoffMaxMs, kBackoffMinMs << std::min(failures - 1, 6u));
    retry_at = Clock::now() + std::chrono::milliseconds(backoff);
    why = std::move(what);
    if (to.tls) tls_metrics().failed(to.text, reason);
  }
};

// A loop's upstreams, by address and TLS settings, kept by the loop
// (Loop::kept) with the TLS contexts their connections are made from.
struct Pool {
  std::map<std::string, std::shared_ptr<Peer>> peers;
  ~Pool();
};

std::shared_ptr<Peer>& peer_for(Pool& pool, const Upstream& to) {
  auto& peers = pool.peers;
  std::string key = to.text;
  if (to.tls) key += " tls " + std::to_string(reinterpret_cast<uintptr_t>(to.tls.get()));
  auto it = peers.find(key);
  if (it != peers.end() && !(to.tls && it->second->tls.expired())) return it->second;
  // Those that hold nothing (their configuration reloaded away, or idle
  // without failures) go as a new one comes.
  for (auto p = peers.begin(); p != peers.end();) {
    const Peer& old = *p->second;
    bool idle = old.connections.empty() && (old.is_tls ? old.tls.expired() : Clock::now() >= old.retry_at);
    p = idle ? peers.erase(p) : std::next(p);
  }
  std::shared_ptr<Peer>& peer = peers[key];
  peer = std::make_shared<Peer>();
  peer->is_tls = bool(to.tls);
  peer->tls = to.tls;
  return peer;
}

void send_pooled(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                 ExchangeDone done, bool again);

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `open_ms`: how long it may take to connect, and with TLS to shake hands.
  Connection(Loop& loop, const Upstream& to, std::shared_ptr<Peer> peer, unsigned open_ms)
      : loop_(loop), to_(to), peer_(std::move(peer)) {
    idle_ = evtimer_new(loop.base(), on_idle, this);
    opening_ = evtimer_new(loop.base(), on_opening_timeout, this);
    if (to.tls) {
      SSL* ssl = tls_client(loop.kept<TlsContexts>(), to.tls, peer_->resume, why_);
      if (!ssl) {
        broken_ = true;
        return;
      }
      bev_ = bufferevent_openssl_socket_new(loop.base(), -1, ssl, BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
      if (!bev_) SSL_free(ssl);
      tls_metrics().opened(to.text);
    } else {
      bev_ = bufferevent_socket_new(loop.base(), -1, BEV_OPT_CLOSE_ON_FREE);
    }
    sockaddr_in6 sa;
    socklen_t len = ip_to_sockaddr(to.address, to.port, &sa);
    if (!bev_ || bufferevent_socket_connect(bev_, reinterpret_cast<sockaddr*>(&sa), int(len)) != 0) {
      broken_ = true;
      no_socket_ = !bev_ || errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM;
      why_ = strerror(bev_ ? errno : ENOMEM);
      return;
    }
    bufferevent_setcb(bev_, readable, nullptr, on_event, this);
    bufferevent_enable(bev_, EV_READ);
    no_delay(bufferevent_getfd(bev_));
    timeval tv{long(open_ms / 1000), long(open_ms % 1000) * 1000};
    evtimer_add(opening_, &tv);
  }
  ~Connection() {
    event_free(idle_);
    event_free(opening_);
    if (!bev_) return;
    // Closed as DNS closes (RFC 7766 6.2.3), not a truncation attack:
    // OpenSSL would otherwise take the session it is freed with as not
    // resumable, and with TLS 1.3 that is the newest session.
    if (to_.tls && established_)
      SSL_set_shutdown(bufferevent_openssl_get_ssl(bev_), SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
    bufferevent_free(bev_);
  }
  bool broken() const { return broken_; }
  bool no_socket() const { return no_socket_; }
  const std::string& why() const { return why_; }
  // Out of use: an unanswered query's timeout with nothing read since.
  bool draining() const { return draining_; }
  size_t load() const { return pending_.size(); }

  // `again`: the query was left unanswered by a connection closed before.
  void send(std::vector<uint8_t> query, unsigned timeout_ms, ExchangeDone done, bool again) {
    evtimer_del(idle_);
    if (to_.tls && established_) tls_metrics().reused(to_.text);
    // IDs are unique among the queries in flight on this connection.
    uint16_t id = load16(query.data());
    while (pending_.count(id)) id = random_query_id();
    store16(query.data(), id);
    Pending& p = pending_[id];
    p.query = std::move(query);
    p.done = std::move(done);
    p.timeout_ms = timeout_ms;
    p.again = again;
    TimeoutArg* arg = new TimeoutArg{weak_from_this(), id};
    p.timer = evtimer_new(loop_.base(), on_timeout, arg);
    timeval tv{long(timeout_ms / 1000), long(timeout_ms % 1000) * 1000};
    evtimer_add(p.timer, &tv);
    if (written_ < kMaxInFlight) write(p);
    else waiting_.push_back(id);
  }

 private:
  struct Pending {
    std::vector<uint8_t> query;
    ExchangeDone done;
    unsigned timeout_ms;
    bool again;
    bool written = false;
    Clock::time_point sent;
    event* timer = nullptr;
  };
  struct TimeoutArg {
    std::weak_ptr<Connection> conn;
    uint16_t id;
  };

  void write(Pending& p) {
    p.written = true;
    p.sent = Clock::now();
    written_++;
    put_tcp_message(bev_, p.query);
  }

  // The queries waiting for a slot, as replies free them.
  void write_waiting() {
    while (written_ < kMaxInFlight && !waiting_.empty()) {
      auto it = pending_.find(waiting_.front());
      waiting_.pop_front();
      if (it != pending_.end() && !it->second.written) write(it->second);
    }
  }

  static void readable(bufferevent*, void* arg) {
    auto self = static_cast<Connection*>(arg)->shared_from_this();
    self->last_read_ = Clock::now();
    evbuffer* in = bufferevent_get_input(self->bev_);
    std::vector<uint8_t> msg;
    while (take_tcp_message(in, msg)) {
      if (msg.size() < 2) continue;
      auto it = self->pending_.find(load16(msg.data()));
      if (it == self->pending_.end() || !it->second.written ||
          !answers_query(Bytes{it->second.query.data(), it->second.query.size()},
                         Bytes{msg.data(), msg.size()}))
        continue;
      ExchangeResult r{ExchangeResult::ok, std::move(msg), {}};
      self->served_ = true;
      self->take(it->first).done(r);
    }
    self->write_waiting();
    // More replies to come on it (the AAAA after the A): the upstream may
    // be holding them for our ACK.
    if (!self->pending_.empty()) quick_ack(bufferevent_getfd(self->bev_));
  }

  static void on_event(bufferevent*, short what, void* arg) {
    auto self = static_cast<Connection*>(arg)->shared_from_this();
    if (what & BEV_EVENT_CONNECTED) return self->opened();
    if (!self->established_) {
      SSL* ssl = self->to_.tls ? bufferevent_openssl_get_ssl(self->bev_) : nullptr;
      int error = EVUTIL_SOCKET_ERROR();
      unsigned long ssl_error = ssl ? bufferevent_get_openssl_error(self->bev_) : 0;
      while (ssl && bufferevent_get_openssl_error(self->bev_)) continue;  // the first says why
      if (!(what & BEV_EVENT_ERROR)) error = 0;
      const char* reason;
      if (ssl) {
        reason = tls_failure(ssl, error, ssl_error, self->why_);
      } else {
        reason = error == ECONNREFUSED ? "refused" : "connect";
        self->why_ = error ? strerror(error) : "closed by the upstream";
      }
      return self->open_failed(reason);
    }
    // Closed by the upstream, or reset: an idle close is its right, one
    // with queries unanswered counts.
    self->why_ = "connection closed by the upstream";
    if (self->to_.tls && !self->pending_.empty()) tls_metrics().failed(self->to_.text, "closed");
    self->fail_all();
  }

  void opened() {
    established_ = true;
    evtimer_del(opening_);
    peer_->failures = 0;
    if (to_.tls) tls_metrics().handshake(to_.text, SSL_session_reused(bufferevent_openssl_get_ssl(bev_)) == 1);
  }

  static void on_opening_timeout(evutil_socket_t, short, void* arg) {
    auto self = static_cast<Connection*>(arg)->shared_from_this();
    self->why_ = self->to_.tls ? "no TLS handshake in time" : "no connection in time";
    self->open_failed("timeout");
  }

  void open_failed(const char* reason) {
    peer_->failed_to_open(to_, reason, why_);
    fail_all();
  }

  static void on_timeout(evutil_socket_t, short, void* arg) {
    std::unique_ptr<TimeoutArg> t(static_cast<TimeoutArg*>(arg));
    auto self = t->conn.lock();
    if (!self) return;
    auto it = self->pending_.find(t->id);
    if (it == self->pending_.end()) return;
    if (it->second.written && self->last_read_ < it->second.sent) self->draining_ = true;
    ExchangeResult r{ExchangeResult::timeout, {}, {}};
    self->take(t->id).done(r);
  }

  static void on_idle(evutil_socket_t, short, void* arg) {
    static_cast<Connection*>(arg)->forget();
  }

  // The query `id`, no longer in flight here; it must be.
  Pending take(uint16_t id) {
    auto it = pending_.find(id);
    Pending p = std::move(it->second);
    pending_.erase(it);
    if (p.written) written_--;
    if (event_pending(p.timer, EV_TIMEOUT, nullptr)) {
      // The timer's argument is freed here, since it will not fire.
      delete static_cast<TimeoutArg*>(event_get_callback_arg(p.timer));
    }
    event_free(p.timer);
    if (pending_.empty() && !broken_) {
      timeval tv{draining_ ? 0 : kIdleMs / 1000, 0};
      evtimer_add(idle_, &tv);
    }
    return p;
  }

  // Closed, reset or never opened: the next query opens another. What was
  // in flight goes again on a new connection if this one had served and
  // it is the query's first; else it fails.
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
      ExchangeResult r{ExchangeResult::error, {}, why_};
      p.done(r);
    }
  }

  void forget() {
    auto& list = peer_->connections;
    auto it = std::find_if(list.begin(), list.end(), [this](const auto& c) { return c.get() == this; });
    if (it != list.end()) list.erase(it);
  }

  Loop& loop_;
  Upstream to_;
  std::shared_ptr<Peer> peer_;
  bufferevent* bev_ = nullptr;
  event* idle_;
  event* opening_;
  bool broken_ = false;
  bool no_socket_ = false;  // broken for want of a descriptor or memory
  bool established_ = false;  // connected, and with TLS the handshake done
  bool served_ = false;  // a reply came on it
  bool draining_ = false;
  std::string why_;
  Clock::time_point last_read_{};
  std::map<uint16_t, Pending> pending_;
  size_t written_ = 0;  // of pending_
  std::deque<uint16_t> waiting_;  // IDs of pending_ not written yet, in order
};

// A connection holds its peer, and the peer its connections. At the
// loop's end the idle ones are freed; one with queries in flight is left
// to the process's exit, as before: their callbacks may hold what another
// loop owns, gone before this one.
Pool::~Pool() {
  for (auto& [key, peer] : peers)
    std::erase_if(peer->connections, [](const std::shared_ptr<Connection>& c) { return c->load() == 0; });
}

// The connection a query goes on: the least loaded in use if it has room
// or no other may be opened; null when one is to be opened; past the cap,
// the least loaded of all.
std::shared_ptr<Connection> pick(const Peer& peer) {
  std::shared_ptr<Connection> usable, any;
  for (const auto& c : peer.connections) {
    if (!any || c->load() < any->load()) any = c;
    if (!c->draining() && (!usable || c->load() < usable->load())) usable = c;
  }
  bool room = peer.connections.size() < kMaxConnections;
  if (usable && (usable->load() < kMaxInFlight || !room)) return usable;
  return room ? nullptr : any;
}

void send_pooled(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                 ExchangeDone done, bool again) {
  std::shared_ptr<Peer> peer = peer_for(loop.kept<Pool>(), to);
  std::shared_ptr<Connection> conn = pick(*peer);
  if (!conn) {
    if (Clock::now() < peer->retry_at) {
      ExchangeResult r{ExchangeResult::error, {}, peer->why};
      return done(r);
    }
    conn = std::make_shared<Connection>(loop, to, peer, timeout_ms);
    if (conn->broken()) {
      if (!conn->no_socket()) peer->failed_to_open(to, "connect", conn->why());
      ExchangeResult r{conn->no_socket() ? ExchangeResult::no_socket : ExchangeResult::error, {}, conn->why()};
      return done(r);
    }
    peer->connections.push_back(conn);
  }
  conn->send(std::move(query), timeout_ms, std::move(done), again);
}

}  // namespace

void exchange_tcp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  ExchangeDone done) {
  send_pooled(loop, to, std::move(query), timeout_ms, std::move(done), false);
}

}  // namespace rk8s::server
