// SPDX-License-Identifier: Apache-2.0
// A worker loop's UDP socket: queries read in batches (recvmmsg), the
// replies ready at once sent in one sendmmsg, a later one alone, all from
// the same socket.
#pragma once

#include "server/net/loop.h"
#include "server/net/serve.h"

namespace rk8s::server {

class UdpListener {
 public:
  // `worker`: the loop's index among the workers (Client::worker).
  UdpListener(Loop& loop, int fd, ServeAtOnce at_once, Serve serve, size_t worker = 0);
  ~UdpListener();
  UdpListener(const UdpListener&) = delete;
  UdpListener& operator=(const UdpListener&) = delete;

  // SIGTERM, losing nothing: the socket leaves its SO_REUSEPORT group (a
  // connected socket is never picked for another sender's datagram), so
  // new queries go to another instance on the address, or are refused when
  // there is none; the ones already queued are still read and answered.
  void drain();
  // Nothing is left to read (after drain()).
  bool idle() const;

 private:
  static void readable(evutil_socket_t fd, short, void* arg);

  int fd_;
  size_t worker_;
  ServeAtOnce at_once_;
  Serve serve_;
  event* read_;
};

}  // namespace rk8s::server
