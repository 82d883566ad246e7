// SPDX-License-Identifier: Apache-2.0
#include "server/net/tcp.h"

#include "server/net/client_share.h"
#include "server/net/socket.h"
#include "server/net/tcp_message.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

namespace rk8s::server {
namespace {

ClientSlots slots;  // every listener's connections, by client address
std::atomic<uint64_t> refused_count{0};
std::atomic<uint64_t> unread_count{0};

// One client connection; it keeps itself alive while open or owing replies.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Loop& loop, size_t worker, evutil_socket_t fd, const sockaddr_storage& addr, const ClientKey& key,
             const Serve& serve, const TcpLimits& limits)
      : serve_(serve),
        client_{addr, true, worker},
        key_(key),
        max_queries_(limits.max_queries),
        idle_{long(limits.idle_seconds), 0} {
    bev_ = bufferevent_socket_new(loop.base(), fd, BEV_OPT_CLOSE_ON_FREE);
    // Replies the client leaves unread as long as it may stay idle.
    bufferevent_set_timeouts(bev_, nullptr, &idle_);
    // Told when the replies waiting drop below kReadPause.
    bufferevent_setwatermark(bev_, EV_WRITE, TcpListener::kReadPause, 0);
    deadline_ = evtimer_new(loop.base(), expired, this);
  }
  ~Connection() {
    if (bev_) free_socket();
    slots.give(key_);
  }

  void start() {
    self_ = shared_from_this();
    bufferevent_setcb(bev_, readable, writable, event, this);
    read_queries();
  }

 private:
  static void readable(bufferevent*, void* arg) { static_cast<Connection*>(arg)->read_queries(); }
  static void writable(bufferevent*, void* arg) { static_cast<Connection*>(arg)->read_queries(); }
  static void expired(evutil_socket_t, short, void* arg) { static_cast<Connection*>(arg)->close(); }

  static void event(bufferevent*, short what, void* arg) {
    Connection& c = *static_cast<Connection*>(arg);
    if (what & BEV_EVENT_TIMEOUT) unread_count++;  // the write timeout, the only one set
    c.close();
  }

  size_t unread() const { return evbuffer_get_length(bufferevent_get_output(bev_)); }
  bool may_read() const { return owed_ < max_queries_ && unread() < TcpListener::kReadPause; }

  // Reads while it may: what is not read waits in the socket's buffer,
  // and the client's writes stall once that is full.
  void read_queries() {
    if (!bev_ || reading_) return;  // answered() while reading: the loop below goes on
    evbuffer* in = bufferevent_get_input(bev_);
    std::vector<uint8_t> query;
    reading_ = true;
    auto self = shared_from_this();  // a reply may close it meanwhile
    while (bev_ && may_read() && take_tcp_message(in, query)) {
      evtimer_del(deadline_);
      owed_++;
      serve_(Bytes{query.data(), query.size()}, client_,
             [self](std::vector<uint8_t>& reply) { self->answered(reply); });
    }
    reading_ = false;
    if (!bev_) return;
    may_read() ? bufferevent_enable(bev_, EV_READ) : bufferevent_disable(bev_, EV_READ);
    time_client();
  }

  // The idle timeout of RFC 7766 (6.2.3) counts whole queries, not bytes:
  // it runs while the connection waits on its client (nothing owed, or
  // part of a query in), from when that wait began, and only a query read
  // whole stops it; so neither a query trickled a byte at a time nor bytes
  // on an idle connection hold it open longer, as CoreDNS's deadline for
  // each message. While replies are owed or reading is paused, the wait
  // is the server's and it does not run.
  void time_client() {
    bool partial = evbuffer_get_length(bufferevent_get_input(bev_)) > 0;
    if (!may_read() || (owed_ && !partial))
      evtimer_del(deadline_);
    else if (!evtimer_pending(deadline_, nullptr))
      evtimer_add(deadline_, &idle_);
  }

  // Each reply as soon as it is ready, out of order as RFC 7766 (6.2.1.1)
  // lets a server send them: a slow question holds up no other.
  void answered(std::vector<uint8_t>& reply) {
    owed_--;
    if (bev_ && !reply.empty()) put_tcp_message(bev_, reply);
    if (bev_ && unread() > TcpListener::kMaxUnread) {
      unread_count++;
      return close();
    }
    if (bev_) read_queries();  // the queries a full pipeline left in the buffer
    if (!bev_ && !owed_) self_.reset();
  }

  void free_socket() {
    bufferevent_free(bev_);
    bev_ = nullptr;
    event_free(deadline_);
  }

  // Replies still owed keep the object (not the socket) until they come.
  void close() {
    free_socket();
    if (!owed_) self_.reset();
  }

  const Serve& serve_;
  Client client_;
  ClientKey key_;
  size_t max_queries_;
  timeval idle_;
  bool reading_ = false;
  bufferevent* bev_;
  struct event* deadline_;  // the client's wait (time_client)
  size_t owed_ = 0;  // replies not yet given
  std::shared_ptr<Connection> self_;
};

}  // namespace

TcpListener::TcpListener(Loop& loop, int fd, Serve serve, const TcpLimits& limits, Warn warn, size_t worker)
    : loop_(loop), worker_(worker), serve_(std::move(serve)), limits_(limits) {
  listener_ = evconnlistener_new(loop.base(), accepted, this, LEV_OPT_CLOSE_ON_FREE, -1, fd);
  sockaddr_storage self{};
  socklen_t len = sizeof self;
  getsockname(fd, reinterpret_cast<sockaddr*>(&self), &len);
  pause_ = std::make_unique<AcceptPause>(loop, listener_, "dns " + address_text(self) + "/tcp", std::move(warn));
}

TcpListener::~TcpListener() {
  pause_.reset();
  evconnlistener_free(listener_);
}

void TcpListener::stop_accepting() {
  evconnlistener_disable(listener_);
  // A listener merely disabled stays in its SO_REUSEPORT group: the kernel
  // would queue new connections on it until exit, then reset them. The
  // ones queued already are taken; shutdown() unhashes the socket, so the
  // next ones go to an instance beside this one (or are refused).
  evutil_socket_t fd = evconnlistener_get_fd(listener_);
  sockaddr_storage addr;
  socklen_t len = sizeof addr;
  for (int c; (c = accept(fd, reinterpret_cast<sockaddr*>(&addr), &len)) >= 0; len = sizeof addr)
    accepted(listener_, c, reinterpret_cast<sockaddr*>(&addr), int(len), this);
  shutdown(fd, SHUT_RD);
}

size_t TcpListener::open_connections() { return slots.held(); }
size_t TcpListener::most_per_client() { return slots.most(); }
uint64_t TcpListener::refused_connections() { return refused_count; }
uint64_t TcpListener::unread_closes() { return unread_count; }

void TcpListener::accepted(evconnlistener*, evutil_socket_t fd, sockaddr* addr, int len, void* arg) {
  TcpListener& self = *static_cast<TcpListener*>(arg);
  ClientKey key = ClientKey::of(addr);
  if (slots.take(key, self.limits_.max_clients, self.limits_.max_per_client) != ClientSlots::Refusal::none) {
    refused_count++;
    close(fd);
    return;
  }
  evutil_make_socket_nonblocking(fd);
  if (self.limits_.nagle) {
    int zero = 0;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &zero, sizeof zero);
  }
  sockaddr_storage from{};
  memcpy(&from, addr, size_t(len) < sizeof from ? size_t(len) : sizeof from);
  std::make_shared<Connection>(self.loop_, self.worker_, fd, from, key, self.serve_, self.limits_)->start();
}

}  // namespace rk8s::server
