// Where the kernel would send a packet from: a connected UDP socket, no
// packet sent.
#include <unistd.h>

#include "results/sort.h"

namespace rk8s {

int route_source(const IpAddr& dst, IpAddr* src) {
  int fd = socket(dst.family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
  if (fd < 0) return -1;
  sockaddr_in6 sa;
  socklen_t len = ip_to_sockaddr(dst, 0, &sa);
  int r = -1;
  if (connect(fd, reinterpret_cast<sockaddr*>(&sa), len) == 0) {
    len = sizeof sa;
    r = 0;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0) {
      *src = ip_from_sockaddr(reinterpret_cast<sockaddr*>(&sa));
      r = 1;
    }
  }
  close(fd);
  return r;
}

}  // namespace rk8s
