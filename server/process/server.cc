// SPDX-License-Identifier: Apache-2.0
#include "server/process/server.h"

#include <csignal>
#include <thread>

#include "server/cache/metrics.h"
#include "server/metrics/process.h"
#include "server/net/tcp.h"
#include "server/process/bounds.h"
#include "server/process/descriptors.h"

namespace rk8s::server {
namespace {

constexpr unsigned kDrainMs = 3000;         // SIGTERM: at most this long for what is in flight
constexpr unsigned kDrainCheckMs = 20;
constexpr unsigned kOverloadSayMs = kQuietSeconds * 1000;  // overload is said at most this often

size_t workers() { return std::max(1u, std::thread::hardware_concurrency()); }

// The descriptors the process needs besides those the limits count: per
// worker, its loop's and a UDP and TCP socket per listen address and a TCP
// connection per upstream; the server's own questions (a UDP socket each);
// and the HTTP listeners, files, standard streams.
size_t reserved_descriptors(const ServerConfig& config) {
  size_t upstreams = config.upstream_resolvers ? config.upstream_resolvers->upstreams.size() : 0;
  for (const ZoneServer& s : config.servers)
    if (s.forward) upstreams += s.forward->upstreams.size();
  return 64 + refresh_limit(config.limits.max_concurrent) +
         workers() * (4 + 2 * config.listen.size() + upstreams);
}

ServerConfig fitted(ServerConfig config, size_t descriptors, std::string& said) {
  said = fit_descriptors(config.limits, descriptors, reserved_descriptors(config));
  return config;
}

}  // namespace

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

Server::Server(const ServerConfig& config, std::function<ServerConfig()> reread, QueryPathWrap wrap)
    : descriptors_(raise_descriptor_limit()),
      config_(fitted(config, descriptors_, fitted_)),
      reread_(std::move(reread)),
      wrap_(std::move(wrap)),
      memory_(memory_budget(config_)),
      cache_(config_.cache.capacity, memory_.records, config_.cache.stale.max_stale),
      held_(memory_.waiting),
      flights_(FlightLimits{config_.limits.max_concurrent, config_.limits.max_pending, config_.limits.max_joined}),
      queries_(config_, memory_.packets, workers(), runtime(config_), wrap_),
      workers_(workers(), config_.listen, queries_.at_once(), queries_.serve(),
               TcpLimits{config_.limits.max_tcp_clients, config_.limits.max_tcp_per_client,
                         config_.limits.max_tcp_queries, config_.limits.tcp_idle_seconds,
                         !config_.tcp_nodelay},
               say_limited),
      http_(main_loop_, config_.health, config_.metrics,
            HttpHandlers{[this] { return queries_.runtime()->ready(); }, [this] { return metrics_.render(); }},
            HttpLimits{config_.limits.max_http_clients, config_.limits.http_timeout_seconds,
                       config_.limits.max_http_per_client},
            say_limited),
      hup_(std::make_unique<Signal>(main_loop_, SIGHUP, [this] { reload(); })),
      term_(std::make_unique<Signal>(main_loop_, SIGTERM, [this] { drain(); })),
      intr_(std::make_unique<Signal>(main_loop_, SIGINT, [this] { drain(); })) {
  metrics_.add([this] { return queries_.render_metrics(); });
  metrics_.add([this] { return forward_metrics_.render(); });
  metrics_.add([this] { return render_cache_metrics(cache_.counters(), queries_.packet_hits()); });
  metrics_.add([this] { return bounds(); });
  metrics_.add([] { return render_process_metrics(process_stats()); });
  if (!config_.coredns_metrics) return;
  metrics_.add([this] {
    CacheCounters cache = cache_.counters();
    return queries_.render_coredns_metrics(cache.entries, cache.denials) + forward_metrics_.render_coredns();
  });
}

Server::~Server() = default;

int Server::run() {
  main_loop_.after(kOverloadSayMs, [this] { say_overload(); });
  workers_.start();
  say(queries_.runtime()->serving() + "; listening on " + listening());
  say("memory " + std::to_string(memory_.memory >> 20) + " MiB (" + memory_.from + "): cache " +
      std::to_string(memory_.records >> 10) + " KiB, packet cache " + std::to_string(memory_.packets >> 10) +
      " KiB, waiting queries " + std::to_string(memory_.waiting >> 10) + " KiB; " + std::to_string(descriptors_) + " descriptors" + (fitted_.empty() ? "" : "; " + fitted_));
  queries_.runtime()->probe_loops(config_.listen.front());
  main_loop_.run();
  workers_.stop();
  return 0;
}

ForwardShared Server::forward_shared(const ServerConfig& config) {
  return ForwardShared{cache_, config.cache, flights_, held_, forward_metrics_, say_limited, config.walk_cuts.rfc8020};
}

std::shared_ptr<const Runtime> Server::runtime(const ServerConfig& config) {
  return std::make_shared<const Runtime>(config, forward_shared(config), say_limited, wrap_.runtime);
}

// SIGHUP. A configuration that does not load leaves the running one serving.
void Server::reload() {
  try {
    ServerConfig next = reread_();
    queries_.reload(runtime(next));
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

// The bounds' gauges and counters (bounds.h).
std::string Server::bounds() const {
  CacheCounters cache = cache_.counters();
  Flights::Counts flights = flights_.counts();
  const Limits& l = config_.limits;
  size_t packets = queries_.packet_bytes(), waiting = held_.used();
  std::vector<Bound> held = {
      {"memory", memory_.memory, cache.bytes + packets + waiting},
      {"cache.maxBytes", memory_.records, cache.bytes},
      {"packetCache", memory_.packets, packets},
      {"waitingBytes", memory_.waiting, waiting, held_.peak()},
      {"maxConcurrent", l.max_concurrent, flights.questions},
      {"maxPending", l.max_pending, flights.waiting},
      {"refreshes", refresh_limit(l.max_concurrent), flights.refreshes},
      {"maxTCPClients", l.max_tcp_clients, TcpListener::open_connections()},
      {"maxTCPPerClient", l.max_tcp_per_client, TcpListener::most_per_client()},
      {"maxHTTPClients", l.max_http_clients, http_.open_connections()},
      {"maxHTTPPerClient", l.max_http_per_client, http_.most_per_client()},
      {"descriptors", descriptors_, open_descriptors()},
  };
  TurnedAway turned{TcpListener::refused_connections(), TcpListener::unread_closes(), http_.evicted(),
                    http_.refused(), queries_.rate_limited(), lines_held_back()};
  return render_bounds(held, turned);
}

// What overload refused since the last look, one line per kind; and the
// log lines held back meanwhile.
void Server::say_overload() {
  say_held_back();
  auto since = [](uint64_t now, uint64_t& said, const char* what) {
    if (now > said)
      say("overloaded: " + std::to_string(now - said) + " " + what + " refused in the last " +
          std::to_string(kOverloadSayMs / 1000) + " s");
    said = now;
  };
  since(forward_metrics_.limited_count(), questions_refused_, "questions (limits: maxConcurrent, maxPending, maxJoined, a client's share)");
  since(TcpListener::refused_connections(), connections_refused_,
        "TCP connections (limits.maxTCPClients, maxTCPPerClient, a client's share)");
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
