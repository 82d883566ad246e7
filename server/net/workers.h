// SPDX-License-Identifier: Apache-2.0
// The worker threads: a loop each, with its own UDP socket and TCP
// listener on every listen address (SO_REUSEPORT spreads the clients).
#pragma once

#include <memory>
#include <thread>
#include <vector>

#include "server/net/tcp.h"
#include "server/net/udp.h"
#include "server/settings/address.h"

namespace rk8s::server {

class Workers {
 public:
  // Opens every socket; throws std::runtime_error when one cannot be bound.
  Workers(size_t count, const std::vector<Endpoint>& listen, const ServeAtOnce& at_once,
          const Serve& serve, const TcpLimits& limits, const Warn& warn);
  ~Workers();

  void start();
  // SIGTERM: no new connection or datagram comes to this instance; what it
  // has is read and answered (UdpListener::drain).
  void drain();
  // Nothing queued to read on any UDP socket.
  bool idle() const;
  // The loops end and the threads are joined.
  void stop();

 private:
  struct Worker {
    Loop loop;
    std::vector<std::unique_ptr<UdpListener>> udp;
    std::vector<std::unique_ptr<TcpListener>> tcp;
    std::thread thread;
  };
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace rk8s::server
