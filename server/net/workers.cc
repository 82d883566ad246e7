#include "server/net/workers.h"

#include "server/net/socket.h"

namespace rk8s::server {

Workers::Workers(size_t count, const std::vector<Endpoint>& listen, const Serve& serve,
                 const TcpLimits& limits) {
  for (size_t i = 0; i < count; i++) {
    auto w = std::make_unique<Worker>();
    for (const Endpoint& e : listen) {
      w->udp.push_back(std::make_unique<UdpListener>(w->loop, open_socket(e, SOCK_DGRAM), serve));
      w->tcp.push_back(
          std::make_unique<TcpListener>(w->loop, open_socket(e, SOCK_STREAM), serve, limits));
    }
    workers_.push_back(std::move(w));
  }
}

Workers::~Workers() { stop(); }

void Workers::start() {
  for (auto& w : workers_) w->thread = std::thread([&loop = w->loop] { loop.run(); });
}

void Workers::stop_reading() {
  for (auto& w : workers_) {
    Worker* raw = w.get();
    w->loop.post([raw] {
      for (auto& u : raw->udp) u->stop_reading();
      for (auto& t : raw->tcp) t->stop_accepting();
    });
  }
}

void Workers::stop() {
  for (auto& w : workers_) {
    if (!w->thread.joinable()) continue;
    w->loop.stop();
    w->thread.join();
  }
}

}  // namespace rk8s::server
