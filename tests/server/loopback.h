// SPDX-License-Identifier: Apache-2.0
// What the network layers' tests (forward/, net/) share: a DNS responder
// on 127.0.0.1 run by a thread of its own, blocking clients, and a loop
// run by a thread of its own. Ports are the kernel's pick; every wait is
// bounded (kWaitMs), so a broken layer fails a test instead of hanging it.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "libresolv-k8s/dns/wire.h"
#include "server/forward/forward_settings.h"
#include "server/settings/address.h"
#include "server/net/loop.h"
#include "server/net/serve.h"
#include "server/util/dns_text.h"
#include "tests/server/fixture.h"
#include "libresolv-k8s/util/base.h"

namespace rk8s::server::test {

// The longest a test waits for its peer: far beyond what any answer on
// loopback takes, never a measure of anything.
constexpr int kWaitMs = 5000;

using Message = std::vector<uint8_t>;
using Strings = std::vector<std::string>;

inline sockaddr_in loopback_addr(uint16_t port) {
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return sa;
}

inline uint16_t local_port(int fd) {
  sockaddr_in sa{};
  socklen_t len = sizeof sa;
  getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  return ntohs(sa.sin_port);
}

inline Endpoint loopback_endpoint(uint16_t port) {
  Endpoint e;
  EXPECT_TRUE(parse_endpoint("127.0.0.1:" + std::to_string(port), e));
  return e;
}

inline Upstream loopback_upstream(uint16_t port) {
  IpAddr ip;
  EXPECT_TRUE(parse_ip("127.0.0.1", ip));
  return upstream_at(ip, port);
}

// A port on 127.0.0.1 free for TCP and UDP a moment ago, for what binds
// by address only (the workers, the HTTP endpoints).
inline uint16_t free_port() {
  for (;;) {
    int tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in sa = loopback_addr(0);
    bind(tcp, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
    sa = loopback_addr(local_port(tcp));
    bool both = bind(udp, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
    uint16_t port = local_port(tcp);
    close(tcp);
    close(udp);
    if (both) return port;
  }
}

// True when `fd` has something to read within kWaitMs.
inline bool readable_soon(int fd, int wait_ms = kWaitMs) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, wait_ms) == 1;
}

// The query's bytes with QR set and `rcode`: a reply that answers it.
inline Message reply_to(const Message& query, uint8_t rcode = 0) {
  Message r = query;
  r[2] |= 0x80;
  r[3] = uint8_t((r[3] & 0xf0) | rcode);
  return r;
}

inline Message with_id(Message m, uint16_t id) {
  store16(m.data(), id);
  return m;
}

inline uint16_t id_of(const Message& m) { return m.size() >= 2 ? load16(m.data()) : 0; }

// A listener's trivial Serve: the query back as its reply, QR set.
inline Serve echo_serve() {
  return [](Bytes q, const Client&, Answer answer) {
    Message reply = reply_to(Message(q.data, q.data + q.size));
    answer(reply);
  };
}

// Message framed for DNS over TCP: its length in two bytes first.
inline std::string framed(const Message& m) {
  std::string out = {char(m.size() >> 8), char(m.size())};
  return out.append(m.begin(), m.end());
}

// A DNS server on 127.0.0.1, UDP and TCP on one port: each query it reads
// gets the replies `respond` gives for it (none: silence), in order.
class Responder {
 public:
  using Respond = std::function<std::vector<Message>(const Message& query)>;

  explicit Responder(Respond respond) : respond_(std::move(respond)) {
    for (;;) {  // a UDP port whose TCP twin is free too
      udp_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
      tcp_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in sa = loopback_addr(0);
      bind(udp_, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
      port_ = local_port(udp_);
      sa = loopback_addr(port_);
      if (bind(tcp_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0 && listen(tcp_, 16) == 0) break;
      close(udp_);
      close(tcp_);
    }
    if (pipe2(wake_, O_CLOEXEC) != 0) ADD_FAILURE() << "pipe: " << strerror(errno);
    thread_ = std::thread([this] { run(); });
  }
  ~Responder() {
    char c = 0;
    if (write(wake_[1], &c, 1) != 1) ADD_FAILURE() << "responder: cannot wake";
    thread_.join();
    for (Conn& c2 : conns_) close(c2.fd);
    for (int fd : {udp_, tcp_, wake_[0], wake_[1]}) close(fd);
  }
  Responder(const Responder&) = delete;
  Responder& operator=(const Responder&) = delete;

  uint16_t port() const { return port_; }
  Upstream upstream() const { return loopback_upstream(port_); }
  // The queries read so far, UDP and TCP, in order.
  std::vector<Message> queries() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queries_;
  }

 private:
  struct Conn {
    int fd;
    std::string in;
  };

  std::vector<Message> answer(const Message& query) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queries_.push_back(query);
    }
    return respond_(query);
  }

  void run() {
    for (;;) {
      std::vector<pollfd> fds = {{wake_[0], POLLIN, 0}, {udp_, POLLIN, 0}, {tcp_, POLLIN, 0}};
      for (const Conn& c : conns_) fds.push_back({c.fd, POLLIN, 0});
      if (poll(fds.data(), fds.size(), -1) < 0) continue;
      if (fds[0].revents) return;
      if (fds[1].revents) read_udp();
      if (fds[2].revents) {
        int fd = accept4(tcp_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) conns_.push_back({fd, {}});
      }
      for (size_t i = 3; i < fds.size(); i++)
        if (fds[i].revents && !read_tcp(conns_[i - 3])) {
          close(conns_[i - 3].fd);
          conns_[i - 3].fd = -1;
        }
      std::erase_if(conns_, [](const Conn& c) { return c.fd < 0; });
    }
  }

  void read_udp() {
    uint8_t buf[65535];
    sockaddr_in from{};
    socklen_t len = sizeof from;
    ssize_t n = recvfrom(udp_, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &len);
    if (n <= 0) return;
    for (const Message& r : answer(Message(buf, buf + n)))
      sendto(udp_, r.data(), r.size(), 0, reinterpret_cast<sockaddr*>(&from), len);
  }

  // False once the client has closed.
  bool read_tcp(Conn& c) {
    char buf[4096];
    ssize_t n = read(c.fd, buf, sizeof buf);
    if (n <= 0) return false;
    c.in.append(buf, size_t(n));
    while (c.in.size() >= 2) {
      size_t len = size_t(uint8_t(c.in[0])) << 8 | uint8_t(c.in[1]);
      if (c.in.size() < 2 + len) break;
      Message query(c.in.begin() + 2, c.in.begin() + 2 + long(len));
      c.in.erase(0, 2 + len);
      std::string out;
      for (const Message& r : answer(query)) out += framed(r);
      if (!out.empty() && write(c.fd, out.data(), out.size()) != ssize_t(out.size())) return false;
    }
    return true;
  }

  Respond respond_;
  int udp_ = -1, tcp_ = -1, wake_[2] = {-1, -1};
  uint16_t port_ = 0;
  std::vector<Conn> conns_;
  mutable std::mutex mutex_;
  std::vector<Message> queries_;
  std::thread thread_;
};

// A listener's Warn when the test reads none of it.
inline const Warn ignore_warnings = [](const std::string&) {};

// A UDP socket connected to 127.0.0.1:port.
class UdpClient {
 public:
  explicit UdpClient(uint16_t port) : fd_(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in sa = loopback_addr(port);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
  }
  ~UdpClient() { close(fd_); }
  uint16_t port() const { return local_port(fd_); }
  void send(const Message& m) { EXPECT_EQ(::send(fd_, m.data(), m.size(), 0), ssize_t(m.size())); }
  // The next datagram; empty when none came within `wait_ms`, with errno
  // the socket's error (ECONNREFUSED: no one listens).
  Message receive(int wait_ms = kWaitMs) {
    errno = 0;
    if (!readable_soon(fd_, wait_ms)) return {};
    uint8_t buf[65535];
    ssize_t n = recv(fd_, buf, sizeof buf, 0);
    return n > 0 ? Message(buf, buf + n) : Message{};
  }

 private:
  int fd_;
};

// A TCP connection to 127.0.0.1:port.
class TcpClient {
 public:
  // From `source` (another client: 127.0.0.2), else from 127.0.0.1.
  explicit TcpClient(uint16_t port, const char* source = nullptr)
      : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    if (source) {
      sockaddr_in from = loopback_addr(0);
      inet_pton(AF_INET, source, &from.sin_addr);
      EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from), 0) << strerror(errno);
    }
    sockaddr_in sa = loopback_addr(port);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0) << strerror(errno);
  }
  ~TcpClient() { close(fd_); }
  uint16_t port() const { return local_port(fd_); }
  // Every message in one write.
  void send(const std::vector<Message>& messages) {
    std::string out;
    for (const Message& m : messages) out += framed(m);
    write_text(out);
  }
  void write_text(const std::string& text) {
    EXPECT_EQ(write(fd_, text.data(), text.size()), ssize_t(text.size()));
  }
  // As much of `text` as the socket takes now; how much.
  size_t write_some(const std::string& text) {
    ssize_t n = ::send(fd_, text.data(), text.size(), MSG_DONTWAIT);
    return n > 0 ? size_t(n) : 0;
  }
  // The next message; empty when none came within kWaitMs or the peer closed.
  Message receive() {
    while (in_.size() < 2 || in_.size() < 2 + (size_t(uint8_t(in_[0])) << 8 | uint8_t(in_[1])))
      if (!read_more()) return {};
    size_t len = size_t(uint8_t(in_[0])) << 8 | uint8_t(in_[1]);
    Message m(in_.begin() + 2, in_.begin() + 2 + long(len));
    in_.erase(0, 2 + len);
    return m;
  }
  // Everything until the peer closes (an HTTP/1.0 reply).
  std::string read_to_end() {
    while (read_more()) {
    }
    return std::move(in_);
  }
  // True when the peer closed the connection (within wait_ms).
  bool closed_by_peer(int wait_ms = kWaitMs) {
    char c;
    return readable_soon(fd_, wait_ms) && read(fd_, &c, 1) <= 0;
  }

 private:
  bool read_more() {
    char buf[4096];
    if (!readable_soon(fd_)) return false;
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    in_.append(buf, size_t(n));
    return true;
  }

  int fd_;
  std::string in_;
};

// A Loop run by a thread of its own until stop() or the end of the scope.
class LoopThread {
 public:
  LoopThread() : thread_([this] { loop_.run(); }) {}
  ~LoopThread() { stop(); }
  Loop& loop() { return loop_; }
  void stop() {
    if (!thread_.joinable()) return;
    loop_.stop();
    thread_.join();
  }
  // `fn` run on the loop, its result waited for.
  template <class Fn>
  auto call(Fn fn) -> decltype(fn()) {
    std::packaged_task<decltype(fn())()> task(std::move(fn));
    auto result = task.get_future();
    loop_.post([&task] { task(); });
    return result.get();
  }

 private:
  Loop loop_;
  std::thread thread_;
};

}  // namespace rk8s::server::test
