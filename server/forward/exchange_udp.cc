// SPDX-License-Identifier: Apache-2.0
#include "server/forward/exchange_udp.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>


namespace rk8s::server {
namespace {

using Clock = std::chrono::steady_clock;

struct UdpExchange {
  int fd;
  event* ev = nullptr;
  std::vector<uint8_t> query;
  Clock::time_point deadline;
  ExchangeDone done;

  ~UdpExchange() {
    if (ev) event_free(ev);
    if (fd >= 0) close(fd);
  }
};

void finish(std::unique_ptr<UdpExchange> x, ExchangeResult::Status status,
            std::vector<uint8_t> reply = {}) {
  ExchangeResult r{status, std::move(reply)};
  ExchangeDone done = std::move(x->done);
  x.reset();
  done(r);
}

void wait(std::unique_ptr<UdpExchange> x);

void readable(evutil_socket_t fd, short what, void* arg) {
  std::unique_ptr<UdpExchange> x(static_cast<UdpExchange*>(arg));
  if (what & EV_TIMEOUT) return finish(std::move(x), ExchangeResult::timeout);
  // Scratch, per thread: the largest datagram, read afresh each call.
  static thread_local uint8_t buf[65535];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return wait(std::move(x));
    if (n < 0) return finish(std::move(x), ExchangeResult::error);  // ICMP unreachable
    if (answers_query(Bytes{x->query.data(), x->query.size()}, Bytes{buf, size_t(n)}))
      return finish(std::move(x), ExchangeResult::ok, std::vector<uint8_t>(buf, buf + n));
  }
}

// Until the deadline: a forged or stray datagram does not extend the wait.
void wait(std::unique_ptr<UdpExchange> x) {
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(x->deadline - Clock::now());
  if (left.count() <= 0) return finish(std::move(x), ExchangeResult::timeout);
  timeval tv{long(left.count() / 1000000), long(left.count() % 1000000)};
  event_add(x->ev, &tv);
  x.release();  // owned by the event until it fires
}

}  // namespace

void exchange_udp(Loop& loop, const Upstream& to, std::vector<uint8_t> query, unsigned timeout_ms,
                  ExchangeDone done) {
  auto x = std::make_unique<UdpExchange>();
  x->fd = socket(to.address.family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  x->query = std::move(query);
  x->deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  x->done = std::move(done);
  sockaddr_in6 sa;
  socklen_t len = ip_to_sockaddr(to.address, to.port, &sa);
  if (x->fd < 0) return finish(std::move(x), ExchangeResult::no_socket);
  // Connected: the kernel drops datagrams from any other address and port.
  if (connect(x->fd, reinterpret_cast<sockaddr*>(&sa), len) != 0 ||
      send(x->fd, x->query.data(), x->query.size(), 0) < 0)
    return finish(std::move(x), ExchangeResult::error);
  x->ev = event_new(loop.base(), x->fd, EV_READ, readable, x.get());
  wait(std::move(x));
}

}  // namespace rk8s::server
