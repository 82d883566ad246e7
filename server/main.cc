// resolv-k8s-server: the companion DNS server (server/README.md).
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "server/data/load.h"
#include "server/metrics/metrics.h"
#include "server/metrics/query_log.h"
#include "server/net/transport.h"

using namespace rk8s::server;

namespace {

int run(int argc, char** argv) {
  ServerFlags flags = parse_flags(argc, argv);
  if (flags.help) {
    fputs(kUsage, stdout);
    return 0;
  }
  Store store;
  load_store(flags.cluster, flags.cluster_domain, flags.zones,
             [](const std::string& w) { fprintf(stderr, "resolv-k8s-server: %s\n", w.c_str()); },
             store);
  std::unique_ptr<QueryLog> log;
  if (!flags.query_log.empty()) log = std::make_unique<QueryLog>(flags.query_log);
  std::vector<int> udp, tcp;
  for (const Endpoint& e : flags.listen) {
    udp.push_back(open_socket(e, SOCK_DGRAM));
    tcp.push_back(open_socket(e, SOCK_STREAM));
  }
  int http = flags.metrics ? open_socket(*flags.metrics, SOCK_STREAM) : -1;

  static Metrics metrics;
  HandlerConfig config{&store, &flags.faults, flags.autopath, flags.autopath_code};
  QueryHandler handler = [&](rk8s::Bytes query, bool over_tcp, const std::string& client,
                             uint8_t* out, size_t cap) {
    QueryInfo info;
    size_t n = handle_query(config, query, over_tcp, out, cap, info);
    if (flags.delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(flags.delay_ms));
    metrics.count(info);
    if (log) log->write(client, info);
    return n;
  };
  unsigned workers = std::max(4u, std::thread::hardware_concurrency());
  for (int fd : udp) serve_udp(fd, workers, handler);
  for (int fd : tcp) serve_tcp(fd, handler);
  if (http >= 0) serve_http(http, [] { return metrics.render(); });
  fprintf(stderr, "resolv-k8s-server: %zu names loaded, listening\n", store.node_count());
  for (;;) pause();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    fprintf(stderr, "resolv-k8s-server: %s\n", e.what());
    return 1;
  }
}
