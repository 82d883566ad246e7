// SPDX-License-Identifier: Apache-2.0
// A node that never goes dark: with nodeSetup, the server runs as the child
// of a small supervisor. When the child dies without its orderly exit
// (SIGKILL, the OOM killer, a crash), the supervisor removes its interface
// and NOTRACK rules at once, as that exit would have (unless another
// instance holds the lock), so pods reach kube-dns through kube-proxy
// within the second; then it starts the server again, 1 s later, doubling
// to 16 s while it keeps dying young. SIGTERM, SIGINT and SIGHUP go on to
// the child; its orderly exit ends the supervisor with its status.
#pragma once

#include <functional>
#include <vector>

#include "server/config/config.h"

namespace rk8s::server {

// `serve` runs in each child and returns its exit status.
int supervise(const NodeSetupConfig& setup, const std::vector<Endpoint>& listen,
              const std::function<int()>& serve);

}  // namespace rk8s::server
