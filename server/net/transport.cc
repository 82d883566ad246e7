#include "server/net/transport.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace rk8s::server {

namespace {

constexpr size_t kMaxMessage = 65535;
constexpr int kTcpIdleSeconds = 30;

bool read_all(int fd, uint8_t* p, size_t n) {
  while (n > 0) {
    ssize_t got = read(fd, p, n);
    if (got <= 0) return false;
    p += got, n -= size_t(got);
  }
  return true;
}

bool write_all(int fd, const uint8_t* p, size_t n) {
  while (n > 0) {
    ssize_t put = send(fd, p, n, MSG_NOSIGNAL);
    if (put <= 0) return false;
    p += put, n -= size_t(put);
  }
  return true;
}

void set_idle_timeout(int fd) {
  timeval tv{kTcpIdleSeconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

void tcp_connection(int fd, std::string client, QueryHandler handler) {
  set_idle_timeout(fd);
  std::vector<uint8_t> query(kMaxMessage), reply(2 + kMaxMessage);
  uint8_t len[2];
  while (read_all(fd, len, 2)) {
    size_t n = load16(len);
    if (!read_all(fd, query.data(), n)) break;
    size_t out = handler(Bytes{query.data(), n}, true, client, reply.data() + 2, kMaxMessage);
    if (out == 0) continue;
    store16(reply.data(), uint16_t(out));
    if (!write_all(fd, reply.data(), 2 + out)) break;
  }
  close(fd);
}

}  // namespace

std::string address_text(const sockaddr_storage& addr) {
  char host[INET6_ADDRSTRLEN] = "?";
  if (addr.ss_family == AF_INET) {
    auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    return std::string(host) + ":" + std::to_string(ntohs(a->sin_port));
  }
  auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
  inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
  return "[" + std::string(host) + "]:" + std::to_string(ntohs(a->sin6_port));
}

int open_socket(const Endpoint& at, int type) {
  std::string where = at.text + (type == SOCK_DGRAM ? "/udp" : "/tcp");
  int fd = socket(at.addr.ss_family, type | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket " + where + ": " + strerror(errno));
  int one = 1;
  if (type == SOCK_STREAM) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (at.addr.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&at.addr), at.len) != 0 ||
      (type == SOCK_STREAM && listen(fd, 128) != 0)) {
    std::string why = strerror(errno);
    close(fd);
    throw std::runtime_error("bind " + where + ": " + why);
  }
  return fd;
}

void serve_udp(int fd, unsigned workers, const QueryHandler& handler) {
  for (unsigned i = 0; i < workers; ++i)
    std::thread([fd, handler] {
      std::vector<uint8_t> query(kMaxMessage), reply(kMaxMessage);
      for (;;) {
        sockaddr_storage from;
        socklen_t from_len = sizeof from;
        ssize_t n = recvfrom(fd, query.data(), query.size(), 0,
                             reinterpret_cast<sockaddr*>(&from), &from_len);
        if (n < 0) continue;
        size_t out = handler(Bytes{query.data(), size_t(n)}, false, address_text(from),
                             reply.data(), reply.size());
        if (out > 0) sendto(fd, reply.data(), out, 0, reinterpret_cast<sockaddr*>(&from), from_len);
      }
    }).detach();
}

void serve_tcp(int fd, const QueryHandler& handler) {
  std::thread([fd, handler] {
    for (;;) {
      sockaddr_storage from;
      socklen_t from_len = sizeof from;
      int conn = accept4(fd, reinterpret_cast<sockaddr*>(&from), &from_len, SOCK_CLOEXEC);
      if (conn < 0) continue;
      std::thread(tcp_connection, conn, address_text(from), handler).detach();
    }
  }).detach();
}

void serve_http(int fd, const std::function<std::string()>& body) {
  std::thread([fd, body] {
    for (;;) {
      int conn = accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (conn < 0) continue;
      set_idle_timeout(conn);
      // Any request gets the metrics; read until the end of its headers.
      std::string request;
      char buf[1024];
      ssize_t n;
      while (request.find("\r\n\r\n") == std::string::npos && request.size() < 8192 &&
             (n = read(conn, buf, sizeof buf)) > 0)
        request.append(buf, size_t(n));
      std::string text = body();
      std::string reply = "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
                          "Content-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text;
      write_all(conn, reinterpret_cast<const uint8_t*>(reply.data()), reply.size());
      close(conn);
    }
  }).detach();
}

}  // namespace rk8s::server
