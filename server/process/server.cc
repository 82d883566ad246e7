// SPDX-License-Identifier: Apache-2.0
#include "server/process/server.h"

#include <csignal>
#include <cstdio>
#include <thread>

#include "server/metrics/cache_metrics.h"
#include "server/net/tcp.h"

namespace rk8s::server {
namespace {

constexpr unsigned kDrainMs = 3000;         // SIGTERM: at most this long for what is in flight
constexpr unsigned kDrainCheckMs = 20;
constexpr unsigned kOverloadSayMs = 10000;  // overload is said at most this often

}  // namespace

void say(const std::string& what) { fprintf(stderr, "resolv-k8s-server: %s\n", what.c_str()); }

struct Server::Signal {
  Signal(Loop& loop, int number, std::function<void()> on_signal) : fn(std::move(on_signal)) {
    ev = evsignal_new(loop.base(), number, fire, this);
    event_add(ev, nullptr);
  }
  ~Signal() { event_free(ev); }
  static void fire(evutil_socket_t, short, void* arg) { static_cast<Signal*>(arg)->fn(); }

  event* ev;
  std::function<void()> fn;
};

Server::Server(const ServerConfig& config, std::function<ServerConfig()> reread)
    : config_(config),
      reread_(std::move(reread)),
      node_(config.node_setup ? std::make_unique<NodeSetup>(*config.node_setup, config.listen) : nullptr),
      memory_(memory_budget(config)),
      cache_(config.cache.capacity, memory_.records),
      flights_(FlightLimits{config.limits.max_concurrent, config.limits.max_pending, config.limits.max_joined}),
      queries_(config, memory_.packets, std::make_shared<const Runtime>(config, forward_shared(config), say)),
      workers_(std::max(1u, std::thread::hardware_concurrency()), config.listen, queries_.at_once(),
               queries_.serve(),
               TcpLimits{config.limits.max_tcp_clients, config.limits.tcp_idle_seconds, !config.tcp_nodelay}),
      http_(main_loop_, config.health, config.metrics,
            HttpHandlers{[this] { return queries_.runtime()->ready(); },
                         [this] {
                           return queries_.render_metrics() + forward_metrics_.render() +
                                  render_cache_metrics(cache_.counters(), queries_.packet_hits());
                         }}),
      hup_(std::make_unique<Signal>(main_loop_, SIGHUP, [this] { reload(); })),
      term_(std::make_unique<Signal>(main_loop_, SIGTERM, [this] { drain(); })),
      intr_(std::make_unique<Signal>(main_loop_, SIGINT, [this] { drain(); })) {}

Server::~Server() = default;

int Server::run() {
  if (node_) main_loop_.after(config_.node_setup->check_seconds * 1000, [this] { check_node(); });
  main_loop_.after(kOverloadSayMs, [this] { say_overload(); });
  workers_.start();
  say(queries_.runtime()->serving() + "; listening on " + listening());
  queries_.runtime()->probe_loops(config_.listen.front());
  main_loop_.run();
  workers_.stop();
  if (node_) node_->teardown();
  return 0;
}

ForwardShared Server::forward_shared(const ServerConfig& config) {
  return ForwardShared{cache_, config.cache, flights_, forward_metrics_, say};
}

// SIGHUP. A configuration that does not load leaves the running one serving.
void Server::reload() {
  try {
    ServerConfig next = reread_();
    queries_.reload(std::make_shared<const Runtime>(next, forward_shared(next), say));
    say("configuration reloaded");
    queries_.runtime()->probe_loops(next.listen.front());
  } catch (const std::exception& e) {
    say(std::string(e.what()) + " (the old configuration keeps serving)");
  }
}

// SIGTERM, SIGINT: take no new query, answer what came, then end.
void Server::drain() {
  say("SIGTERM: no new queries; answering those in flight, " + std::to_string(kDrainMs / 1000) +
      " s at most");
  workers_.drain();
  drain_until_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDrainMs);
  check_drained();
}

void Server::check_drained() {
  bool done = queries_.answering() == 0 && workers_.idle();
  if (done || std::chrono::steady_clock::now() > drain_until_) return main_loop_.stop();
  main_loop_.after(kDrainCheckMs, [this] { check_drained(); });
}

void Server::check_node() {
  try {
    node_->check();
  } catch (const std::exception& e) {
    say(e.what());
  }
  main_loop_.after(config_.node_setup->check_seconds * 1000, [this] { check_node(); });
}

// What overload refused since the last look, one line per kind.
void Server::say_overload() {
  auto since = [](uint64_t now, uint64_t& said, const char* what) {
    if (now > said)
      say("overloaded: " + std::to_string(now - said) + " " + what + " refused in the last " +
          std::to_string(kOverloadSayMs / 1000) + " s");
    said = now;
  };
  since(forward_metrics_.limited_count(), questions_refused_, "questions (limits: maxConcurrent, maxPending, maxJoined, a client's share)");
  since(TcpListener::refused_connections(), connections_refused_,
        "TCP connections (limits.maxTCPClients)");
  main_loop_.after(kOverloadSayMs, [this] { say_overload(); });
}

std::string Server::listening() const {
  std::string addresses;
  for (const Endpoint& e : config_.listen) addresses += (addresses.empty() ? "" : ", ") + e.text;
  if (config_.health) addresses += "; health (/health, /ready) on " + config_.health->text;
  if (config_.metrics) addresses += "; metrics (/metrics) on " + config_.metrics->text;
  return addresses;
}

}  // namespace rk8s::server
