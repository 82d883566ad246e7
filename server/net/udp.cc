#include "server/net/udp.h"

#include <netinet/in.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/ip.h"

namespace rk8s::server {
namespace {

constexpr int kBatch = 64;  // queries read per wakeup, for fairness between sockets

}  // namespace

UdpListener::UdpListener(Loop& loop, int fd, Serve serve) : fd_(fd), serve_(std::move(serve)) {
  read_ = event_new(loop.base(), fd, EV_READ | EV_PERSIST, readable, this);
  event_add(read_, nullptr);
}

UdpListener::~UdpListener() {
  event_free(read_);
  close(fd_);
}

void UdpListener::drain() {
  sockaddr_storage self{};
  socklen_t len = sizeof self;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&self), &len);
  IpAddr a = ip_from_sockaddr(reinterpret_cast<sockaddr*>(&self));
  if (same_ip(a, IpAddr{a.family})) {  // the wildcard: its loopback never sends to us either
    if (a.family == AF_INET) a.addr[0] = 127, a.addr[3] = 1;
    else a.addr[15] = 1;
  }
  uint16_t port = ntohs(reinterpret_cast<sockaddr_in*>(&self)->sin_port);
  len = ip_to_sockaddr(a, port, &self);
  connect(fd_, reinterpret_cast<sockaddr*>(&self), len);
}

bool UdpListener::idle() const {
  int queued = 0;
  return ioctl(fd_, FIONREAD, &queued) != 0 || queued == 0;
}

void UdpListener::readable(evutil_socket_t fd, short, void* arg) {
  UdpListener& self = *static_cast<UdpListener*>(arg);
  static thread_local uint8_t buf[65535];
  for (int i = 0; i < kBatch; i++) {
    Client client{{}, false};
    socklen_t len = sizeof client.addr;
    ssize_t n = recvfrom(fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&client.addr), &len);
    if (n < 0) return;
    self.serve_(Bytes{buf, size_t(n)}, client, [fd, client, len](std::vector<uint8_t>& reply) {
      if (!reply.empty())
        sendto(fd, reply.data(), reply.size(), 0, reinterpret_cast<const sockaddr*>(&client.addr), len);
    });
  }
}

}  // namespace rk8s::server
