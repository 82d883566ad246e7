// SPDX-License-Identifier: Apache-2.0
// resolv-k8s-server: the companion DNS server and node-local cache
// (server/README.md).
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "server/answer/packet_cache.h"
#include "server/answer/runtime.h"
#include "server/config/flags.h"
#include "server/metrics/cache_metrics.h"
#include "server/metrics/forward_metrics.h"
#include "server/metrics/metrics.h"
#include "server/metrics/query_log.h"
#include "server/net/http.h"
#include "server/net/socket.h"
#include "server/net/tcp.h"
#include "server/net/workers.h"
#include "server/node/setup.h"
#include "server/node/supervisor.h"

using namespace rk8s::server;

namespace {

constexpr unsigned kDrainMs = 3000;  // SIGTERM: at most this long for what is in flight
constexpr unsigned kOverloadSayMs = 10000;  // overload is said at most this often

void say(const std::string& what) { fprintf(stderr, "resolv-k8s-server: %s\n", what.c_str()); }

// The runtime queries start with; SIGHUP replaces it.
class Current {
 public:
  explicit Current(std::shared_ptr<const Runtime> rt) { set(std::move(rt)); }
  std::shared_ptr<const Runtime> get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return rt_;
  }
  void set(std::shared_ptr<const Runtime> rt) {
    std::lock_guard<std::mutex> lock(mutex_);
    generation_ = rt->generation();
    rt_.swap(rt);
  }
  // Its Runtime::generation, without the lock.
  uint64_t generation() const { return generation_; }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Runtime> rt_;
  std::atomic<uint64_t> generation_{0};
};

struct Signal {
  event* ev;
  std::function<void()> fn;
  static void fire(evutil_socket_t, short, void* arg) { static_cast<Signal*>(arg)->fn(); }
};

// The server itself; SIGHUP reads `argc` and `argv` again.
int serve(const ServerConfig& config, int argc, char** argv) {
  // The addresses must be there before anything binds them.
  std::unique_ptr<NodeSetup> node;
  if (config.node_setup) node = std::make_unique<NodeSetup>(*config.node_setup, config.listen);
  Cache cache(config.cache.capacity);
  Flights flights;
  ForwardMetrics forward_metrics;
  std::atomic<size_t> upstream_in_flight{0};
  auto shared_for = [&](const ServerConfig& c) {
    return ForwardShared{cache, c.cache, flights, forward_metrics, upstream_in_flight,
                         c.limits.max_concurrent};
  };
  Current current(std::make_shared<const Runtime>(config, shared_for(config), say));

  static Metrics metrics;
  std::atomic<size_t> answering{0};
  unsigned delay_ms = config.delay_ms;
  // Delayed replies are all served the long way.
  PacketCache packets(delay_ms ? 0 : config.cache.capacity);
  // CoreDNS's server label: the first listen address stands for them all.
  const std::string server_label = "dns://" + config.listen.front().text;
  std::unique_ptr<QueryLog> test_log;
  if (!config.query_log.empty()) test_log = std::make_unique<QueryLog>(config.query_log);
  QueryLog query_log;
  query_log.configure(config.log_level, config.query_log_file);
  auto log_query = [&](const Client& client, const QueryInfo& info, const std::vector<uint8_t>& reply,
                       double seconds) {
    metrics.count(info);
    metrics.duration(server_label, info.rcode, seconds);
    query_log.write(client.addr, info, reply, seconds);
    if (test_log) test_log->write(client.addr, info, reply, seconds);
  };
  ServeAtOnce at_once = [&](rk8s::Bytes query, const Client& client, std::vector<uint8_t>& reply) {
    QueryInfo info;
    if (!packets.find(query, current.generation(), PacketCache::Clock::now(), reply, info)) return false;
    log_query(client, info, reply, 0);
    return true;
  };
  Serve serve = [&](rk8s::Bytes query, const Client& client, Answer answer) {
    std::shared_ptr<const Runtime> rt = current.get();
    auto started = std::chrono::steady_clock::now();
    answering++;
    std::string asked;  // the query outlives its buffer only here
    if (!client.tcp) asked.assign(reinterpret_cast<const char*>(query.data), query.size);
    handle_query(rt->handler(), query, client.tcp,
                 [&, rt, client, answer, started, asked = std::move(asked)](std::vector<uint8_t>& reply,
                                                                   const QueryInfo& info) {
                   log_query(client, info, reply,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
                   if (!client.tcp)
                     packets.insert(rk8s::Bytes{reinterpret_cast<const uint8_t*>(asked.data()), asked.size()},
                                    rt->generation(), reply, info, PacketCache::Clock::now());
                   if (!delay_ms) {
                     answer(reply);
                     answering--;
                     return;
                   }
                   Loop::current()->after(delay_ms, [&, answer, r = std::move(reply)]() mutable {
                     answer(r);
                     answering--;
                   });
                 });
  };
  size_t threads = std::max(1u, std::thread::hardware_concurrency());
  Workers workers(threads, config.listen, at_once, serve,
                  TcpLimits{config.limits.max_tcp_clients, config.limits.tcp_idle_seconds, !config.tcp_nodelay});

  Loop main_loop;
  HttpServer http(main_loop, config.health, config.metrics,
                  HttpHandlers{[&] { return current.get()->ready(); },
                               [&] {
                                 return metrics.render() + forward_metrics.render() +
                                        render_cache_metrics(cache.counters(), packets.hits());
                               }});
  Signal hup{nullptr, [&] {
               try {
                 ServerConfig next = parse_command_line(argc, argv);
                 auto runtime = std::make_shared<const Runtime>(next, shared_for(next), say);
                 query_log.configure(next.log_level, next.query_log_file);
                 current.set(std::move(runtime));
                 say("configuration reloaded");
                 current.get()->probe_loops(next.listen.front());
               } catch (const std::exception& e) {
                 say(std::string(e.what()) + " (the old configuration keeps serving)");
               }
             }};
  // SIGTERM: take no new query, answer what came, then end.
  auto drain_until = std::chrono::steady_clock::time_point::max();
  std::function<void()> drained = [&] {
    bool done = answering == 0 && workers.idle();
    if (done || std::chrono::steady_clock::now() > drain_until) return main_loop.stop();
    main_loop.after(20, drained);
  };
  Signal term{nullptr, [&] {
                say("SIGTERM: no new queries; answering those in flight, " + std::to_string(kDrainMs / 1000) +
                    " s at most");
                workers.drain();
                drain_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDrainMs);
                drained();
              }};
  hup.ev = evsignal_new(main_loop.base(), SIGHUP, Signal::fire, &hup);
  term.ev = evsignal_new(main_loop.base(), SIGTERM, Signal::fire, &term);
  event* intr = evsignal_new(main_loop.base(), SIGINT, Signal::fire, &term);
  for (event* ev : {hup.ev, term.ev, intr}) event_add(ev, nullptr);

  std::function<void()> check_node = [&] {
    try {
      node->check();
    } catch (const std::exception& e) {
      say(e.what());
    }
    main_loop.after(config.node_setup->check_seconds * 1000, check_node);
  };
  if (node) main_loop.after(config.node_setup->check_seconds * 1000, check_node);

  // What overload refused since the last look, one line per kind.
  uint64_t questions_seen = 0, connections_seen = 0;
  std::function<void()> say_overload = [&] {
    auto since = [](uint64_t now, uint64_t& seen, const char* what) {
      if (now > seen)
        say("overloaded: " + std::to_string(now - seen) + " " + what + " refused in the last " +
            std::to_string(kOverloadSayMs / 1000) + " s");
      seen = now;
    };
    since(forward_metrics.overloaded_count(), questions_seen, "questions (limits.maxConcurrent)");
    since(TcpListener::refused_connections(), connections_seen, "TCP connections (limits.maxTCPClients)");
    main_loop.after(kOverloadSayMs, say_overload);
  };
  main_loop.after(kOverloadSayMs, say_overload);

  workers.start();
  std::string addresses;
  for (const Endpoint& e : config.listen) addresses += (addresses.empty() ? "" : ", ") + e.text;
  if (config.health) addresses += "; health (/health, /ready) on " + config.health->text;
  if (config.metrics) addresses += "; metrics (/metrics) on " + config.metrics->text;
  say(current.get()->serving() + "; listening on " + addresses);
  current.get()->probe_loops(config.listen.front());
  main_loop.run();
  workers.stop();
  if (node) node->teardown();
  for (event* ev : {hup.ev, term.ev, intr}) event_free(ev);
  return 0;
}

// With nodeSetup, under the supervisor (node/supervisor.h).
int run(int argc, char** argv) {
  ServerConfig config = parse_command_line(argc, argv);
  if (!config.node_setup) return serve(config, argc, argv);
  return supervise(*config.node_setup, config.listen, [&] {
    try {
      return serve(config, argc, argv);
    } catch (const std::exception& e) {
      say(e.what());
      return 1;
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    say(e.what());
    return 1;
  }
}
