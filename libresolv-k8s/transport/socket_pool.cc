#include "transport/socket_pool.h"

#include <ares.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rk8s {
namespace {

// The source port changes at least every kStepsPerSocket steps (glibc: on
// every query or pair), so an off-path forger still has to guess it.
constexpr uint16_t kStepsPerSocket = 32;
constexpr size_t kPoolSize = 8;

struct Entry {
  bool used;
  int fd;
  IpAddr server;
  uint16_t steps;
  dev_t dev;
  ino_t ino;
};

Entry pool[kPoolSize];
SpinLock guard;
pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

void lock_pool() { guard.lock(); }
void unlock_pool() { guard.unlock(); }

// Held across fork, so the child sees whole entries.
void close_in_child() {
  for (Entry& e : pool) {
    if (e.used) close(e.fd);
    e.used = false;
  }
  guard.unlock();
}

void register_atfork() { pthread_atfork(lock_pool, unlock_pool, close_in_child); }

bool still_ours(const Entry& e) {
  struct stat st;
  return fstat(e.fd, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == e.dev &&
         st.st_ino == e.ino;
}

// A pooled socket connected to ss's server, or -1.
int take(ServerSockets& ss) {
  pthread_once(&atfork_once, register_atfork);
  Entry found{};
  guard.lock();
  for (Entry& e : pool) {
    if (e.used && same_ip(e.server, *ss.server)) {
      found = e;
      e.used = false;
      break;
    }
  }
  guard.unlock();
  // A descriptor that is no longer ours is not ours to close either.
  if (!found.used || !still_ours(found)) return -1;
  ss.connected = true;
  ss.steps = found.steps;
  ss.dev = found.dev;
  ss.ino = found.ino;
  return found.fd;
}

bool put(const ServerSockets& ss, int fd) {
  if (fd <= 2 || ss.steps + 1 >= kStepsPerSocket) return false;
  bool done = false;
  guard.lock();
  for (Entry& e : pool) {
    if (!e.used) {
      e = Entry{true, fd, *ss.server, uint16_t(ss.steps + 1), ss.dev, ss.ino};
      done = true;
      break;
    }
  }
  guard.unlock();
  return done;
}

ares_socket_t open_socket(int domain, int type, int protocol, void* data) {
  ServerSockets& ss = *static_cast<ServerSockets*>(data);
  if (type == SOCK_DGRAM) {
    int fd = take(ss);
    if (fd >= 0) return ss.udp = fd;
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
  struct stat st{};
  ss.udp = fd;
  ss.connected = false;
  // Without its identity, the socket cannot be checked later: never pooled.
  ss.steps = fstat(fd, &st) == 0 ? 0 : kStepsPerSocket;
  ss.dev = st.st_dev;
  ss.ino = st.st_ino;
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
    if (ss.keep && put(ss, fd)) return 0;
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
