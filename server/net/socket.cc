// SPDX-License-Identifier: Apache-2.0
#include "server/net/socket.h"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rk8s::server {

int open_socket(const Endpoint& at, int type) {
  std::string where = at.text + (type == SOCK_DGRAM ? "/udp" : "/tcp");
  int fd = socket(at.addr.ss_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) throw std::runtime_error("socket " + where + ": " + strerror(errno));
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  if (type == SOCK_STREAM) {
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    no_delay(fd);  // accepted connections inherit it
  }
  if (at.addr.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (at.before_address) setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &one, sizeof one);  // IPv6's too
  if (bind(fd, reinterpret_cast<const sockaddr*>(&at.addr), at.len) != 0 ||
      (type == SOCK_STREAM && listen(fd, 1024) != 0)) {
    std::string why = strerror(errno);
    close(fd);
    throw std::runtime_error("bind " + where + ": " + why);
  }
  return fd;
}

void no_delay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void quick_ack(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
}

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

}  // namespace rk8s::server
