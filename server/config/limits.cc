// SPDX-License-Identifier: Apache-2.0
#include "server/config/limits.h"

#include <string_view>

#include "libresolv-k8s/dns/autopath.h"
#include "server/settings/quantity.h"

namespace rk8s::server {

namespace {

constexpr unsigned long kMaxLimit = 1'000'000;
constexpr uint64_t kMinMemory = 16 << 20;  // the process itself takes about 8 MiB
constexpr std::string_view kLimitsKeys[] = {
    "memory",        "maxConcurrent",   "maxPending",    "maxJoined",      "maxUpstreamPerQuery",
    "clientQPS",     "maxUDPSize",      "maxTCPClients", "maxTCPPerClient", "maxTCPQueries",
    "tcpIdleTimeout", "maxHTTPClients", "maxHTTPPerClient", "httpTimeout"};

}  // namespace

Limits parse_limits(const Field& f) {
  Mapping m = f.mapping(kLimitsKeys);
  Limits l;
  auto count = [&](std::string_view key, auto& out, unsigned long min, unsigned long max) {
    if (const Field* n = m.find(key)) out = decltype(+out)(n->number(min, max));
  };
  auto seconds = [&](std::string_view key, unsigned& out) {
    if (const Field* d = m.find(key)) {
      out = d->duration_seconds();
      if (out == 0) d->fail("must be at least 1s");
    }
  };
  if (const Field* n = m.find("memory")) l.memory = n->bytes(kMinMemory, kMaxSettingBytes);
  count("maxConcurrent", l.max_concurrent, 1, kMaxLimit);
  count("maxPending", l.max_pending, 1, kMaxLimit);
  count("maxJoined", l.max_joined, 1, kMaxLimit);
  count("maxUpstreamPerQuery", l.max_upstream_per_query, 1, 2 * autopath::kMaxSuffixes);
  count("clientQPS", l.client_qps, 0, kMaxLimit);
  count("maxUDPSize", l.max_udp_size, 512, 65535);
  count("maxTCPClients", l.max_tcp_clients, 1, kMaxLimit);
  count("maxTCPPerClient", l.max_tcp_per_client, 1, kMaxLimit);
  count("maxTCPQueries", l.max_tcp_queries, 1, kMaxLimit);
  seconds("tcpIdleTimeout", l.tcp_idle_seconds);
  count("maxHTTPClients", l.max_http_clients, 1, kMaxLimit);
  count("maxHTTPPerClient", l.max_http_per_client, 1, kMaxLimit);
  seconds("httpTimeout", l.http_timeout_seconds);
  return l;
}

std::vector<SettingKeys> limits_setting_keys() { return {{"", kLimitsKeys}}; }

}  // namespace rk8s::server
