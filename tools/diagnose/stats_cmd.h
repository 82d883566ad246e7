// SPDX-License-Identifier: Apache-2.0
// resolv-k8s stats FILE: the blocks preloaded processes wrote to
// RESOLV_K8S_STATS (preload/stats.cc), one row per process (its last
// block), and their total.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int stats_command(const Args& args);

}  // namespace rk8s::tools
