// SPDX-License-Identifier: Apache-2.0
#include "server/forward/exchange_tcp.h"

#include <event2/bufferevent_ssl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

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
// The queries written to one upstream and unanswered, from one loop, and
// as many waiting for a slot: each bound shared out by client.
constexpr size_t kSlots = kMaxConnections * kMaxInFlight;
constexpr unsigned kBackoffMinMs = 100;
constexpr unsigned kBackoffMaxMs = 5000;

class Connection;

// A query on its way to an upstream.
struct Outgoing {
  std::vector<uint8_t> query;
  ExchangeDone done;
  unsigned timeout_ms;
  QueryOwner owner;
  bool again = false;  // left unanswered by a connection closed before
};

// What a loop holds of one upstream: its connections, when the next may
// be opened after some failed to, the session TLS may resume; and the
// queries that wait for a slot, with what each client holds of the slots
// and of the places to wait (net/client_share.h).
struct Peer : std::enable_shared_from_this<Peer> {
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

  struct Waiting {
    Outgoing out;
    event* timer;
  };
  std::map<uint64_t, Waiting> waiting;  // by number, in the order they came
  uint64_t next_waiting = 0;
  struct Held {
    size_t written = 0, waiting = 0;
  };
  std::unordered_map<ClientKey, Held, ClientKeyHash> clients;
  size_t written = 0;  // the clients' queries in flight on the connections; probes are no one's

  ~Peer() {
    for (auto& [n, w] : waiting) {
      delete static_cast<WaitArg*>(event_get_callback_arg(w.timer));
      event_free(w.timer);
    }
  }
  Held held(const ClientKey& c) const {
    auto it = clients.find(c);
    return it == clients.end() ? Held{} : it->second;
  }
  size_t holders(const ClientKey& c) const { return clients.size() + !clients.count(c); }
  // Whether a client may have one more query written, and one more
  // waiting: each within its share.
  bool may_write(const ClientKey& c) const {
    return within_share(kSlots, written, holders(c), held(c).written);
  }
  bool may_wait(const ClientKey& c) const {
    return within_share(kSlots, waiting.size(), holders(c), held(c).waiting);
  }
  void took(const ClientKey& c, bool wrote) {
    Held& h = clients[c];
    (wrote ? h.written : h.waiting)++;
    written += wrote;
  }
  void gave(const ClientKey& c, bool wrote) {
    auto it = clients.find(c);
    (wrote ? it->second.written : it->second.waiting)--;
    written -= wrote;
    if (!it->second.written && !it->second.waiting) clients.erase(it);
  }

  // `out` waits for a slot, for its timeout at most.
  void wait(Loop& loop, Outgoing out) {
    uint64_t n = next_waiting++;
    WaitArg* arg = new WaitArg{weak_from_this(), n};
    event* timer = evtimer_new(loop.base(), on_wait_timeout, arg);
    timeval tv{long(out.timeout_ms / 1000), long(out.timeout_ms % 1000) * 1000};
    evtimer_add(timer, &tv);
    took(out.owner.client, false);
    waiting.emplace(n, Waiting{std::move(out), timer});
  }
  // The waiting query `n`, no longer waiting; it must be.
  Outgoing unwait(uint64_t n) {
    auto it = waiting.find(n);
    Waiting w = std::move(it->second);
    waiting.erase(it);
    if (event_pending(w.timer, EV_TIMEOUT, nullptr)) delete static_cast<WaitArg*>(event_get_callback_arg(w.timer));
    event_free(w.timer);
    gave(w.out.owner.client, false);
    return std::move(w.out);
  }

 private:
  struct WaitArg {
    std::weak_ptr<Peer> peer;
    uint64_t n;
  };
  static void on_wait_timeout(evutil_socket_t, short, void* arg) {
    std::unique_ptr<WaitArg> w(static_cast<WaitArg*>(arg));
    auto self = w->peer.lock();
    if (!self || !self->waiting.count(w->n)) return;
    ExchangeResult r{ExchangeResult::timeout, {}, {}};
    self->unwait(w->n).done(r);
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
    bool idle = old.connections.empty() && old.waiting.empty() && (old.is_tls ? old.tls.expired() : Clock::now() >= old.retry_at);
    p = idle ? peers.erase(p) : std::next(p);
  }
  std::shared_ptr<Peer>& peer = peers[key];
  peer = std::make_shared<Peer>();
  peer->is_tls = bool(to.tls);
  peer->tls = to.tls;
  return peer;
}

void send_pooled(Loop& loop, const Upstream& to, Outgoing out);
void write_waiting(Loop& loop, const Upstream& to, const std::shared_ptr<Peer>& peer);

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

  // Written now, its timeout counted from now.
  void send(Outgoing out) {
    evtimer_del(idle_);
    if (to_.tls && established_) tls_metrics().reused(to_.text);
    if (!out.owner.probe) peer_->took(out.owner.client, true);
    // IDs are unique among the queries in flight on this connection.
    uint16_t id = load16(out.query.data());
    while (pending_.count(id)) id = random_query_id();
    store16(out.query.data(), id);
    Pending& p = pending_[id];
    p.out = std::move(out);
    p.sent = Clock::now();
    TimeoutArg* arg = new TimeoutArg{weak_from_this(), id};
    p.timer = evtimer_new(loop_.base(), on_timeout, arg);
    timeval tv{long(p.out.timeout_ms / 1000), long(p.out.timeout_ms % 1000) * 1000};
    evtimer_add(p.timer, &tv);
    put_tcp_message(bev_, p.out.query);
  }

 private:
  struct Pending {
    Outgoing out;
    Clock::time_point sent;
    event* timer = nullptr;
  };
  struct TimeoutArg {
    std::weak_ptr<Connection> conn;
    uint16_t id;
  };

  static void readable(bufferevent*, void* arg) {
    auto self = static_cast<Connection*>(arg)->shared_from_this();
    self->last_read_ = Clock::now();
    evbuffer* in = bufferevent_get_input(self->bev_);
    std::vector<uint8_t> msg;
    while (take_tcp_message(in, msg)) {
      if (msg.size() < 2) continue;
      auto it = self->pending_.find(load16(msg.data()));
      if (it == self->pending_.end() ||
          !answers_query(Bytes{it->second.out.query.data(), it->second.out.query.size()},
                         Bytes{msg.data(), msg.size()}))
        continue;
      ExchangeResult r{ExchangeResult::ok, std::move(msg), {}};
      self->served_ = true;
      self->take(it->first).out.done(r);
    }
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
    if (self->last_read_ < it->second.sent) self->draining_ = true;
    ExchangeResult r{ExchangeResult::timeout, {}, {}};
    self->take(t->id).out.done(r);
  }

  // Closed, it leaves room for a connection to open.
  static void on_idle(evutil_socket_t, short, void* arg) {
    auto self = static_cast<Connection*>(arg)->shared_from_this();
    self->forget();
    write_waiting(self->loop_, self->to_, self->peer_);
  }

  // The query `id`, no longer in flight here; it must be. Its slot goes
  // to the next query waiting.
  Pending take(uint16_t id) {
    auto it = pending_.find(id);
    Pending p = std::move(it->second);
    pending_.erase(it);
    if (!p.out.owner.probe) peer_->gave(p.out.owner.client, true);
    if (event_pending(p.timer, EV_TIMEOUT, nullptr)) {
      // The timer's argument is freed here, since it will not fire.
      delete static_cast<TimeoutArg*>(event_get_callback_arg(p.timer));
    }
    event_free(p.timer);
    if (pending_.empty() && !broken_) {
      timeval tv{draining_ ? 0 : kIdleMs / 1000, 0};
      evtimer_add(idle_, &tv);
    }
    write_waiting(loop_, to_, peer_);
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
      if (served_ && !p.out.again) {
        p.out.again = true;
        send_pooled(loop_, to_, std::move(p.out));
        continue;
      }
      ExchangeResult r{ExchangeResult::error, {}, why_};
      p.out.done(r);
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
};

// A connection holds its peer, and the peer its connections. At the
// loop's end the idle ones are freed; one with queries in flight is left
// to the process's exit, as before: their callbacks may hold what another
// loop owns, gone before this one.
Pool::~Pool() {
  for (auto& [key, peer] : peers)
    std::erase_if(peer->connections, [](const std::shared_ptr<Connection>& c) { return c->load() == 0; });
}

// The connection a query goes on: the least loaded in use with room, or
// a new one while fewer than kMaxConnections are open; null when every
// one is full, or when none may be opened now (`failure` says why). A
// probe waits for none: past the cap it goes on the least loaded, beyond
// kMaxInFlight.
std::shared_ptr<Connection> connection_for(Loop& loop, const Upstream& to, const std::shared_ptr<Peer>& peer,
                                           const Outgoing& out, std::optional<ExchangeResult>& failure) {
  std::shared_ptr<Connection> usable, any;
  for (const auto& c : peer->connections) {
    if (!any || c->load() < any->load()) any = c;
    if (!c->draining() && (!usable || c->load() < usable->load())) usable = c;
  }
  if (usable && (usable->load() < kMaxInFlight || out.owner.probe)) return usable;
  if (peer->connections.size() >= kMaxConnections) return out.owner.probe ? any : nullptr;
  if (Clock::now() < peer->retry_at) {
    failure = ExchangeResult{ExchangeResult::error, {}, peer->why};
    return nullptr;
  }
  auto conn = std::make_shared<Connection>(loop, to, peer, out.timeout_ms);
  if (conn->broken()) {
    if (!conn->no_socket()) peer->failed_to_open(to, "connect", conn->why());
    failure = ExchangeResult{conn->no_socket() ? ExchangeResult::no_socket : ExchangeResult::error, {}, conn->why()};
    return nullptr;
  }
  peer->connections.push_back(conn);
  return conn;
}

void send_pooled(Loop& loop, const Upstream& to, Outgoing out) {
  std::shared_ptr<Peer> peer = peer_for(loop.kept<Pool>(), to);
  const ClientKey& client = out.owner.client;
  if (out.owner.probe || (!peer->held(client).waiting && peer->may_write(client))) {
    std::optional<ExchangeResult> failure;
    if (auto conn = connection_for(loop, to, peer, out, failure)) return conn->send(std::move(out));
    if (failure) return out.done(*failure);
  }
  if (!peer->may_wait(client)) {
    ExchangeResult r{ExchangeResult::error, {}, "its client's share of the connections is taken"};
    return out.done(r);
  }
  peer->wait(loop, std::move(out));
}

// The waiting queries whose clients are within their shares of the slots,
// oldest first, while there is room for them.
void write_waiting(Loop& loop, const Upstream& to, const std::shared_ptr<Peer>& peer) {
  for (uint64_t next = 0;;) {
    auto it = peer->waiting.lower_bound(next);
    if (it == peer->waiting.end()) return;
    next = it->first + 1;
    if (!peer->may_write(it->second.out.owner.client)) continue;
    std::optional<ExchangeResult> failure;
    std::shared_ptr<Connection> conn = connection_for(loop, to, peer, it->second.out, failure);
    if (!conn && !failure) return;
    Outgoing out = peer->unwait(it->first);
    if (conn) conn->send(std::move(out));
    else out.done(*failure);
  }
}

}  // namespace

void exchange_tcp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  const QueryOwner& owner, ExchangeDone done) {
  send_pooled(loop, to, Outgoing{std::move(query), std::move(done), timeout_ms, owner});
}

}  // namespace rk8s::server
