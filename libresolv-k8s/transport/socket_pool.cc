// SPDX-License-Identifier: Apache-2.0
#include "transport/socket_pool.h"

#include <ares.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rk8s {
namespace {

// The source port changes at least every kStepsPerSocket steps (glibc: on
// every query or pair), so an off-path forger still has to guess it.
constexpr uint16_t kStepsPerSocket = 32;

ares_socket_t open_socket(int domain, int type, int protocol, void* data) {
  ServerSockets& ss = *static_cast<ServerSockets*>(data);
  if (type == SOCK_DGRAM && take_kept(KeptSocket::dns, *ss.server, ss.kept)) {
    ss.connected = true;
    return ss.udp = ss.kept.fd;
  }
  // With socket functions set, c-ares leaves the socket's flags to us.
  int fd = socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
  if (fd < 0) return ARES_SOCKET_BAD;
  if (type != SOCK_DGRAM) {
    // c-ares turns Nagle off only for sockets it opens itself: the A and
    // AAAA queries of a pair are two writes, and the second must not wait
    // for the ACK of the first.
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
  }
  ss.udp = fd;
  ss.connected = false;
  ss.kept = KeptSocket{KeptSocket::dns, *ss.server, fd};
  // Without its identity, the socket cannot be checked later: never kept.
  if (!identify(ss.kept)) ss.kept.uses = kStepsPerSocket;
  return fd;
}

int connect_socket(ares_socket_t fd, const sockaddr* to, ares_socklen_t len, void* data) {
  const ServerSockets& ss = *static_cast<const ServerSockets*>(data);
  if (fd == ss.udp && ss.connected) return 0;
  return connect(fd, to, len);
}

int close_socket(ares_socket_t fd, void* data) {
  ServerSockets& ss = *static_cast<ServerSockets*>(data);
  if (fd == ss.udp) {
    ss.udp = ARES_SOCKET_BAD;
    ss.kept.uses++;
    if (ss.keep && ss.kept.uses < kStepsPerSocket && keep(ss.kept)) return 0;
  }
  return close(fd);
}

ares_ssize_t receive(ares_socket_t fd, void* buf, size_t len, int flags, sockaddr* from,
                     ares_socklen_t* from_len, void*) {
  return recvfrom(fd, buf, len, flags, from, from_len);
}

ares_ssize_t send_vector(ares_socket_t fd, const iovec* iov, int n, void*) {
  msghdr m{};
  m.msg_iov = const_cast<iovec*>(iov);
  m.msg_iovlen = size_t(n);
  return sendmsg(fd, &m, MSG_NOSIGNAL);
}

}  // namespace

const ares_socket_functions kPooledSockets = {open_socket, close_socket, connect_socket,
                                              receive, send_vector};

}  // namespace rk8s
