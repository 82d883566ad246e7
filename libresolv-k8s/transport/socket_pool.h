// SPDX-License-Identifier: Apache-2.0
// UDP sockets kept between lookups. glibc opens, connects and closes a
// socket for every query (or pair) it sends; a pod asks the same server all
// day. A socket that got every reply of its step goes back to the shelf
// (util/kept_sockets.h), and the next step to that server takes it, already
// connected. c-ares reaches this file through ares_set_socket_functions.
//
// The source port still changes: a socket serves at most a few dozen steps.
#pragma once

#include <ares.h>
#include <sys/types.h>

#include "conf/resolv_conf.h"
#include "util/kept_sockets.h"

namespace rk8s {

// One channel's side: its server, and the UDP socket c-ares holds for it.
struct ServerSockets {
  const IpAddr* server;
  ares_socket_t udp;  // ARES_SOCKET_BAD when none
  bool connected;     // udp came from the shelf, connected to server
  bool keep;          // closing udp shelves it
  KeptSocket kept;    // udp's identity and the steps it served before this one
};

// For ares_set_socket_functions, with the channel's ServerSockets as data.
extern const ares_socket_functions kPooledSockets;

}  // namespace rk8s
