// SPDX-License-Identifier: Apache-2.0
// What the server is told to do: the YAML file of --config (yaml.cc), or
// the command line's closed world (flags.cc). Names follow the OpenShift
// DNS operator API (spec.servers, forwardPlugin, upstreamResolvers, cache).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libresolv-k8s/dns/autopath.h"
#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

// An address to listen on: 127.0.0.1:53, [::1]:53.
struct Endpoint {
  sockaddr_storage addr = {};
  socklen_t len = 0;
  std::string text;  // as given
  // Bound before the address is the node's (IP_FREEBIND): with nodeSetup,
  // which puts it on its interface once the server listens.
  bool before_address = false;
};

// transportConfig with transport TLS: DNS over TLS (RFC 7858).
struct TlsConfig {
  std::string server_name;  // tls.serverName: the name the certificate must hold, sent as SNI
  std::string ca_bundle;    // tls.caBundle: a PEM file; empty: the system's trust store
};

// An upstream DNS server: "10.96.0.11" (port 53, 853 with TLS) or
// "10.96.0.12:5353".
struct Upstream {
  IpAddr address;
  uint16_t port = 53;
  std::string text;  // "10.96.0.12:5353", the metrics' label
  std::shared_ptr<const TlsConfig> tls;  // over TLS (forward/exchange_tls.h); null: UDP and TCP
};

enum class Policy : uint8_t { random, round_robin, sequential };

// forwardPlugin, and upstreamResolvers.
struct ForwardConfig {
  std::vector<Upstream> upstreams;  // 1 to 15
  Policy policy = Policy::random;
  bool tcp_only = false;            // protocolStrategy: TCP
};

// One entry of `servers`: its zones either forwarded or served from files
// (the closed world: a name under none of its data is NXDOMAIN).
struct ZoneServer {
  std::string name;
  std::vector<dns::Name> zones;
  std::optional<ForwardConfig> forward;  // forwardPlugin
  std::vector<std::string> zone_files;   // zoneFiles, RFC 1035 files
  std::string cluster_file;              // clusterFile, kubectl JSON
  std::string cluster_domain = "cluster.local";  // clusterDomain
};

// Prefetch (cache.prefetch, CoreDNS's knobs): an answer in use is fetched
// anew before it expires, once, when asked within the last `percentage` of
// its TTL (a second at least, so that a name asked every second is always
// caught) after `min_hits` uses within `period`.
struct PrefetchConfig {
  bool enabled = true;
  unsigned percentage = 10;  // prefetchPercentage
  uint32_t min_hits = 1;     // prefetchMinHits
  uint32_t period = 60;      // prefetchPeriod, seconds
};

// Serve-stale (cache.serveStale, RFC 8767's timers).
enum class StaleMode : uint8_t {
  verify,     // the upstream first; stale when it fails or outlasts clientTimeout
  immediate,  // stale at once, the answer fetched anew behind it (CoreDNS's)
};
struct ServeStaleConfig {
  uint32_t max_stale = 3600;          // maxStale: seconds past expiry an answer may be served; 0: never
  uint32_t stale_ttl = 30;            // staleTTL: what a stale answer's TTLs say
  unsigned client_timeout_ms = 1800;  // clientTimeout: a query's wait before a stale answer; 0: none
  uint32_t failure_recheck = 30;      // failureRecheck: seconds a name's upstreams are not asked again after failing
  StaleMode mode = StaleMode::verify;
};

struct CacheConfig {
  size_t capacity = 10000;     // entries
  uint32_t positive_ttl = 900;  // seconds; OpenShift's defaults
  uint32_t negative_ttl = 30;
  PrefetchConfig prefetch;
  size_t max_bytes = 0;  // maxBytes, records and packets; 0: memory_budget()'s
  ServeStaleConfig stale;
};

// Bounded work (`limits`, server/README.md): every queue, connection and
// byte the clients can make the server hold.
struct Limits {
  size_t memory = 0;  // bytes the process may use; 0: its container's limit (memory.h)
  size_t max_concurrent = 1000;  // questions on their way to upstreams (REFUSED beyond)
  size_t max_pending = 1024;     // queries waiting for an upstream's answer, all clients
  size_t max_joined = 64;        // queries waiting for one question
  unsigned max_upstream_per_query = 16;  // questions one query may send upstream
  unsigned client_qps = 0;       // queries a second from one client address; 0: unlimited
  size_t max_udp_size = 1232;    // bytes of a UDP reply (unbound's max-udp-size)
  size_t max_tcp_clients = 256;  // client connections
  size_t max_tcp_per_client = 64;  // of them from one client address, within its share
  size_t max_tcp_queries = 16;   // unanswered queries on one connection before it is not read
  unsigned tcp_idle_seconds = 10;  // without a whole query
  size_t max_http_clients = 16;  // connections to the health and metrics addresses
  size_t max_http_per_client = 4;  // of them from one client address, within its share
  unsigned http_timeout_seconds = 5;  // for a whole request
};

// nodeSetup: the node's network as NodeLocal DNSCache sets it up (node/).
struct NodeSetupConfig {
  std::string interface = "resolv-k8s";
  unsigned check_seconds = 60;  // checkInterval
  std::string lock_file = "/run/resolv-k8s/node.lock";  // lockFile
  // keepLinkLocal: the link-local listen addresses stay on the interface,
  // with their NOTRACK rules, when the last instance exits (node/setup.h).
  bool keep_link_local = true;
  // daemonSet: "NAMESPACE/NAME", the DaemonSet the cache runs under; when
  // set, the link-local addresses are kept only while the API server says
  // it is there (node/owner.h): an uninstall leaves nothing on the node.
  std::string daemon_set;
};

// The test modes formerr and echo are server/faults/'s.
enum class AutopathMode : uint8_t {
  on,   // protocol v1
  off,  // ignore the option, as RFC 6891 says for unknown options
};

// The marker path of "DNS Autopath in PodSpec" (answer/marker.h): a query
// for <base>.search.<ns>.<clusterDomain>.<marker> is answered for <base>
// walked over the pod's ClusterFirst search list.
constexpr char kDefaultMarker[] = "ap.k8s.io";  // the proposal's

struct MarkerConfig {
  dns::Name marker;                    // kDefaultMarker
  dns::Name cluster_domain;            // cluster.local
  std::vector<dns::Name> host_search;  // the node's search domains
};

// logLevel, OpenShift's: Normal says the server's own lines only; Debug adds
// the query log's denials and errors (CoreDNS `log . { class denial error }`),
// Trace every query (`class all`).
enum class LogLevel : uint8_t { normal, debug, trace };

struct ServerConfig {
  std::vector<Endpoint> listen;   // UDP and TCP each
  std::optional<Endpoint> health;   // GET /health, GET /ready
  std::optional<Endpoint> metrics;  // GET /metrics
  bool coredns_metrics = true;      // corednsMetrics: CoreDNS's families beside ours
  AutopathMode autopath = AutopathMode::on;  // autopath: {enabled: false} is off
  uint16_t autopath_code = autopath::kDefaultCode;
  std::optional<MarkerConfig> marker;  // with autopath on
  CacheConfig cache;
  Limits limits;
  std::optional<NodeSetupConfig> node_setup;
  std::vector<ZoneServer> servers;                 // longest zone suffix wins
  std::optional<ForwardConfig> upstream_resolvers;  // everything no server matches
  LogLevel log_level = LogLevel::normal;
  std::string query_log_file;  // queryLog; empty: standard output
  // From the command line only (the test faults are server/faults/'s).
  bool tcp_nodelay = true;  // off: client connections leave Nagle on, as dnsmasq's do
};

}  // namespace rk8s::server
