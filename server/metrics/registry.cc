// SPDX-License-Identifier: Apache-2.0
#include "server/metrics/registry.h"

#include "common/prometheus.h"
#include "resolv-k8s.h"

namespace rk8s::server {

std::string Registry::render() const {
  std::string out = family("build_info", "gauge", "The server's version: 1, labelled.") +
                    sample("build_info", "version=\"" RK8S_VERSION "\"", uint64_t(1));
  for (const Render& r : renders_) out += r();
  return out;
}

}  // namespace rk8s::server
