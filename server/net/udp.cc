// SPDX-License-Identifier: Apache-2.0
#include "server/net/udp.h"

#include <netinet/in.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <vector>

#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {
namespace {

// Queries read per wakeup (one recvmmsg), for fairness between sockets.
constexpr int kBatch = 64;
// Room for any query a client sends: the autopath option's payload is at
// most 4096 bytes, and the rest of a query a few hundred.
constexpr size_t kQueryMax = 8192;

// The replies that are ready while a batch is served (the packet cache,
// the cache, the closed world) go out together in one sendmmsg; a later
// one (an upstream's) is sent alone. The slots keep their buffers from one
// batch to the next. One per thread, as scratch: a batch begins and ends
// within one readable() on its loop, and a reply that comes while no
// batch of its socket is open goes alone; nothing is carried from one
// call to another but the buffers' capacity.
struct ReplyBatch {
  int fd = -1;  // while a batch is served
  size_t count = 0;
  std::vector<uint8_t> replies[kBatch];
  sockaddr_storage to[kBatch];
  socklen_t to_len[kBatch];

  std::vector<uint8_t>& slot(const sockaddr_storage& addr, socklen_t len) {
    to[count] = addr;
    to_len[count] = len;
    return replies[count];
  }

  void send() {
    mmsghdr msgs[kBatch]{};
    iovec iov[kBatch];
    for (size_t i = 0; i < count; i++) {
      iov[i] = {replies[i].data(), replies[i].size()};
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
      msgs[i].msg_hdr.msg_name = &to[i];
      msgs[i].msg_hdr.msg_namelen = to_len[i];
    }
    // A datagram the kernel refuses is lost as sendto's would be; the rest go.
    for (size_t sent = 0; sent < count;) {
      int r = sendmmsg(fd, msgs + sent, unsigned(count - sent), 0);
      sent += r > 0 ? size_t(r) : 1;
    }
    count = 0;
    fd = -1;
  }
};
thread_local ReplyBatch batch;

}  // namespace

UdpListener::UdpListener(Loop& loop, int fd, ServeAtOnce at_once, Serve serve, size_t worker)
    : fd_(fd), worker_(worker), at_once_(std::move(at_once)), serve_(std::move(serve)) {
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
  // Scratch, per thread: 512 KiB, too much for a stack, read afresh each call.
  static thread_local uint8_t buf[kBatch][kQueryMax];
  mmsghdr msgs[kBatch]{};
  iovec iov[kBatch];
  Client clients[kBatch];
  for (int i = 0; i < kBatch; i++) {
    iov[i] = {buf[i], kQueryMax};
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &clients[i].addr;
    msgs[i].msg_hdr.msg_namelen = sizeof clients[i].addr;
    clients[i].tcp = false;
    clients[i].worker = self.worker_;
  }
  int n = recvmmsg(fd, msgs, kBatch, MSG_DONTWAIT, nullptr);
  if (n <= 0) return;
  batch.fd = fd;
  for (int i = 0; i < n; i++) {
    // A query cut to kQueryMax bytes is not one: nothing is served for it.
    if (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) continue;
    Client& client = clients[i];
    socklen_t len = msgs[i].msg_hdr.msg_namelen;
    Bytes query{buf[i], msgs[i].msg_len};
    if (self.at_once_ && self.at_once_(query, client, batch.slot(client.addr, len))) {
      batch.count += !batch.replies[batch.count].empty();
      continue;
    }
    self.serve_(query, client, [fd, client, len](std::vector<uint8_t>& reply) {
      if (reply.empty()) return;
      if (batch.fd == fd) {
        batch.slot(client.addr, len).swap(reply);
        batch.count++;
        return;
      }
      sendto(fd, reply.data(), reply.size(), 0, reinterpret_cast<const sockaddr*>(&client.addr), len);
    });
  }
  batch.send();
}

}  // namespace rk8s::server
