// SPDX-License-Identifier: Apache-2.0
#include "server/net/workers.h"

#include "server/net/socket.h"

namespace rk8s::server {

Workers::Workers(size_t count, const std::vector<Endpoint>& listen, const ServeAtOnce& at_once,
                 const Serve& serve, const TcpLimits& limits, const Warn& warn) {
  for (size_t i = 0; i < count; i++) {
    auto w = std::make_unique<Worker>();
    for (const Endpoint& e : listen) {
      w->udp.push_back(std::make_unique<UdpListener>(w->loop, open_socket(e, SOCK_DGRAM), at_once, serve, i));
      w->tcp.push_back(
          std::make_unique<TcpListener>(w->loop, open_socket(e, SOCK_STREAM), serve, limits, warn, i));
    }
    workers_.push_back(std::move(w));
  }
}

Workers::~Workers() { stop(); }

void Workers::start() {
  for (auto& w : workers_) w->thread = std::thread([&loop = w->loop] { loop.run(); });
}

void Workers::drain() {
  for (auto& w : workers_) {
    for (auto& u : w->udp) u->drain();  // a syscall: from this thread, before idle() is asked
    Worker* raw = w.get();
    w->loop.post([raw] {
      for (auto& t : raw->tcp) t->stop_accepting();
    });
  }
}

bool Workers::idle() const {
  for (const auto& w : workers_)
    for (const auto& u : w->udp)
      if (!u->idle()) return false;
  return true;
}

void Workers::stop() {
  for (auto& w : workers_) {
    if (!w->thread.joinable()) continue;
    w->loop.stop();
    w->thread.join();
  }
}

}  // namespace rk8s::server
