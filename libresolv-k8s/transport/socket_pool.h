// UDP sockets kept between lookups. glibc opens, connects and closes a
// socket for every query (or pair) it sends; a pod asks the same server all
// day. A socket that got every reply of its step goes back to a small
// process-wide pool, and the next step to that server takes it, already
// connected. c-ares reaches this file through ares_set_socket_functions.
//
// The source port still changes: a socket serves at most a few dozen steps.
// A socket is never pooled on descriptors 0-2, and one taken from the pool
// is checked to still be ours (the application may have closed it and got
// the same number back for something else). A forked child closes the
// pool's sockets: parent and child must not share a port.
#pragma once

#include <ares.h>
#include <sys/types.h>

#include "conf/resolv_conf.h"

namespace rk8s {

// One channel's side: its server, and the UDP socket c-ares holds for it.
struct ServerSockets {
  const IpAddr* server;
  ares_socket_t udp;  // ARES_SOCKET_BAD when none
  bool connected;     // udp came from the pool, connected to ns
  bool keep;          // closing udp puts it back into the pool
  uint16_t steps;     // steps udp served before this one
  dev_t dev;          // udp's identity, as fstat sees it
  ino_t ino;
};

// For ares_set_socket_functions, with the channel's ServerSockets as data.
extern const ares_socket_functions kPooledSockets;

}  // namespace rk8s
