#include "server/net/udp.h"

#include <netinet/in.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <vector>

#include "util/ip.h"

namespace rk8s::server {
namespace {

// Queries read per wakeup (one recvmmsg), for fairness between sockets.
constexpr int kBatch = 64;
// Room for any query a client sends: the autopath option's payload is at
// most 4096 bytes, and the rest of a query a few hundred.
constexpr size_t kQueryMax = 8192;

// The replies that are ready while a batch is served (cache hits, the
// closed world) go out together in one sendmmsg; a later one (an upstream's)
// is sent alone.
struct ReplyBatch {
  int fd;
  std::vector<std::vector<uint8_t>> replies;
  std::vector<sockaddr_storage> to;
  std::vector<socklen_t> to_len;
};
thread_local ReplyBatch* batching;

void send_batch(const ReplyBatch& b) {
  mmsghdr msgs[kBatch]{};
  iovec iov[kBatch];
  size_t n = b.replies.size();
  for (size_t i = 0; i < n; i++) {
    iov[i] = {const_cast<uint8_t*>(b.replies[i].data()), b.replies[i].size()};
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = const_cast<sockaddr_storage*>(&b.to[i]);
    msgs[i].msg_hdr.msg_namelen = b.to_len[i];
  }
  // A datagram the kernel refuses is lost as sendto's would be; the rest go.
  for (size_t sent = 0; sent < n;) {
    int r = sendmmsg(b.fd, msgs + sent, unsigned(n - sent), 0);
    sent += r > 0 ? size_t(r) : 1;
  }
}

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
  }
  int n = recvmmsg(fd, msgs, kBatch, MSG_DONTWAIT, nullptr);
  if (n <= 0) return;
  ReplyBatch batch{fd, {}, {}, {}};
  batching = &batch;
  for (int i = 0; i < n; i++) {
    // A query cut to kQueryMax bytes is not one: nothing is served for it.
    if (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) continue;
    const Client& client = clients[i];
    socklen_t len = msgs[i].msg_hdr.msg_namelen;
    self.serve_(Bytes{buf[i], msgs[i].msg_len}, client, [fd, client, len](std::vector<uint8_t>& reply) {
      if (reply.empty()) return;
      if (batching && batching->fd == fd) {
        batching->replies.push_back(std::move(reply));
        batching->to.push_back(client.addr);
        batching->to_len.push_back(len);
        return;
      }
      sendto(fd, reply.data(), reply.size(), 0, reinterpret_cast<const sockaddr*>(&client.addr), len);
    });
  }
  batching = nullptr;
  send_batch(batch);
}

}  // namespace rk8s::server
