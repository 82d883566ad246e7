// SPDX-License-Identifier: Apache-2.0
// limits in the config file: each bound read into its field, and each bad
// value's error.
#include "server/config/limits.h"

#include <gtest/gtest.h>

#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using test::SectionCase;

Limits read(const std::string& yaml) {
  return test::read_section(yaml, "limits", [](const Field* f) { return f ? parse_limits(*f) : Limits{}; });
}

std::string summary(const Limits& l) {
  return std::to_string(l.max_concurrent) + " " + std::to_string(l.max_tcp_clients) + " " +
         std::to_string(l.max_tcp_per_client) + " " + std::to_string(l.tcp_idle_seconds) + " pending " +
         std::to_string(l.max_pending) + " joined " + std::to_string(l.max_joined) + " upstream " +
         std::to_string(l.max_upstream_per_query) + " qps " + std::to_string(l.client_qps) + " udp " +
         std::to_string(l.max_udp_size) + " tcp-queries " + std::to_string(l.max_tcp_queries) + " http " +
         std::to_string(l.max_http_clients) + " " + std::to_string(l.max_http_per_client) + " " +
         std::to_string(l.http_timeout_seconds) + " memory " + std::to_string(l.memory);
}

TEST(Limits, EachKeyReadsIntoItsField) {
  const struct {
    std::string yaml, limits;
  } cases[] = {
      {"", "1000 256 64 10 pending 1024 joined 64 upstream 16 qps 0 udp 1232 tcp-queries 16 http 16 4 5 memory 0"},
      {"limits: {maxConcurrent: 5, maxTCPClients: 6, maxTCPPerClient: 2, tcpIdleTimeout: 1m}\n",
       "5 6 2 60 pending 1024 joined 64 upstream 16 qps 0 udp 1232 tcp-queries 16 http 16 4 5 memory 0"},
      {"limits: {maxPending: 7, maxJoined: 8, maxUpstreamPerQuery: 9, clientQPS: 10, maxUDPSize: 4096,\n"
       "  maxTCPQueries: 11, maxHTTPClients: 12, maxHTTPPerClient: 3, httpTimeout: 1m, memory: 64Mi}\n",
       "1000 256 64 10 pending 7 joined 8 upstream 9 qps 10 udp 4096 tcp-queries 11 http 12 3 60 memory 67108864"},
      {"limits: {memory: 1G}\n",
       "1000 256 64 10 pending 1024 joined 64 upstream 16 qps 0 udp 1232 tcp-queries 16 http 16 4 5 memory "
       "1000000000"},
  };
  for (const auto& c : cases) EXPECT_EQ(summary(read(c.yaml)), c.limits) << c.yaml;
}

TEST(Limits, Errors) {
  const SectionCase cases[] = {
      {"limits: {maxConcurrent: 0}\n", "c.yaml:1: maxConcurrent: expected a number from 1 to 1000000, got '0'"},
      {"limits: {maxTCPClients: 1000001}\n", "c.yaml:1: maxTCPClients: expected a number from 1 to 1000000"},
      {"limits: {maxTCPPerClient: 0}\n", "c.yaml:1: maxTCPPerClient: expected a number from 1 to 1000000"},
      {"limits: {tcpIdleTimeout: 0s}\n", "c.yaml:1: tcpIdleTimeout: must be at least 1s"},
      {"limits: {tcpIdleTimeout: 10}\n", "c.yaml:1: tcpIdleTimeout: '10' needs a unit"},
      {"limits: {memory: 128MB}\n",
       "c.yaml:1: memory: '128MB' is not a size such as 128Mi from 16777216 to 1099511627776 bytes"},
      {"limits: {memory: 8Mi}\n", "c.yaml:1: memory: '8Mi' is not a size such as 128Mi"},
      {"limits: {maxUDPSize: 511}\n", "c.yaml:1: maxUDPSize: expected a number from 512 to 65535, got '511'"},
      {"limits: {maxUpstreamPerQuery: 0}\n", "c.yaml:1: maxUpstreamPerQuery: expected a number from 1 to 128, got '0'"},
      {"limits: {httpTimeout: 0s}\n", "c.yaml:1: httpTimeout: must be at least 1s"},
  };
  test::expect_section_errors(cases, "limits", [](const Field* f) { return parse_limits(*f); });
}

}  // namespace
}  // namespace rk8s::server
