// A worker loop's UDP socket: queries read in batches, each reply sent
// from the same socket when it is ready.
#pragma once

#include "server/net/loop.h"
#include "server/net/serve.h"

namespace rk8s::server {

class UdpListener {
 public:
  UdpListener(Loop& loop, int fd, Serve serve);
  ~UdpListener();
  UdpListener(const UdpListener&) = delete;
  UdpListener& operator=(const UdpListener&) = delete;

  // SIGTERM: no new query is read; replies still go out.
  void stop_reading();

 private:
  static void readable(evutil_socket_t fd, short, void* arg);

  int fd_;
  Serve serve_;
  event* read_;
};

}  // namespace rk8s::server
