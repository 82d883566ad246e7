#include "server/net/udp.h"

#include <unistd.h>

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

void UdpListener::stop_reading() { event_del(read_); }

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
