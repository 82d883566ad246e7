// SPDX-License-Identifier: Apache-2.0
// The memory the server may use, and its shares: set in one place, the
// container's limit (its memory cgroup's) or `limits.memory`, so that the
// DaemonSet's limit and the cache's budget never disagree.
#pragma once

#include <cstddef>
#include <string>

#include "server/config/config.h"

namespace rk8s::server {

// Without a limit anywhere: the DaemonSet's.
constexpr size_t kAssumedMemory = size_t(128) << 20;

struct MemoryBudget {
  size_t memory = 0;   // the whole process
  const char* from = "";  // "limits.memory", "the container's limit" or "assumed"
  size_t records = 0;  // the record cache: four fifths of cache.maxBytes
  size_t packets = 0;  // the packet cache: the rest
  size_t waiting = 0;  // what queries waiting on upstreams hold: a quarter of the memory
};

// cache.maxBytes, else a quarter of the memory, split between the caches;
// another quarter for the queries that wait (forward/held_bytes.h). The
// rest is the process's own: its code, stacks, TCP buffers, the heap's slack.
MemoryBudget memory_budget(const ServerConfig& config);

// The lowest memory limit of this process's cgroup and those above it, as
// cgroup v2 (memory.max) or v1 (memory.limit_in_bytes) mounted at `root`
// shows them; 0 when there is none or it cannot be read.
size_t cgroup_memory_limit(const std::string& proc_self_cgroup = "/proc/self/cgroup",
                           const std::string& root = "/sys/fs/cgroup");

}  // namespace rk8s::server
