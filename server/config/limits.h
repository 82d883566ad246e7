// SPDX-License-Identifier: Apache-2.0
// Bounded work (`limits`, server/README.md): every queue, connection and
// byte the clients can make the server hold. Every layer's bounds, which
// process/ hands out to net/, forward/ and answer/: read here, as process/
// is above config/ (server/README.md).
#pragma once

#include <cstddef>
#include <vector>

#include "server/settings/yaml_field.h"

namespace rk8s::server {

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

Limits parse_limits(const Field& f);

std::vector<SettingKeys> limits_setting_keys();

}  // namespace rk8s::server
