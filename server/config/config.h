// SPDX-License-Identifier: Apache-2.0
// What the server is told to do: the YAML file of --config (yaml.cc), or
// the command line's closed world (flags.cc). Names follow the OpenShift
// DNS operator API (spec.servers, forwardPlugin, upstreamResolvers, cache);
// each feature's settings are its own (server/README.md, "Settings").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/answer/autopath_settings.h"
#include "server/cache/cache_settings.h"
#include "server/config/limits.h"
#include "server/forward/forward_settings.h"
#include "server/node/node_settings.h"
#include "server/settings/address.h"

namespace rk8s::server {

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
  WalkCuts walk_cuts;                  // autopath's
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
