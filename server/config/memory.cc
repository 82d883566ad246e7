// SPDX-License-Identifier: Apache-2.0
#include "server/config/memory.h"

#include <cstdlib>
#include <fstream>

namespace rk8s::server {
namespace {

// A limit file's value; 0 for none ("max", v1's page-counter maximum, a
// file that is not there).
size_t read_limit(const std::string& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
  return n >= (1ull << 62) ? 0 : size_t(n);
}

// The lowest limit from `dir` (below `mount`) up to `mount`: a container
// whose cgroup namespace is its own sees its cgroup at the mount itself.
size_t lowest_limit(const std::string& mount, std::string dir, const std::string& file) {
  size_t lowest = 0;
  for (;;) {
    size_t limit = read_limit(mount + dir + "/" + file);
    if (limit && (!lowest || limit < lowest)) lowest = limit;
    if (dir.empty() || dir == "/") return lowest;
    dir.resize(dir.rfind('/'));
  }
}

}  // namespace

size_t cgroup_memory_limit(const std::string& proc_self_cgroup, const std::string& root) {
  std::ifstream in(proc_self_cgroup);
  for (std::string line; std::getline(in, line);) {
    // "0::/path" (v2), "4:memory:/path" (v1, maybe among other controllers).
    size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    std::string path = line.substr(b + 1);
    if (controllers == ",,") {
      if (size_t limit = lowest_limit(root, path, "memory.max")) return limit;
    } else if (controllers.find(",memory,") != std::string::npos) {
      if (size_t limit = lowest_limit(root + "/memory", path, "memory.limit_in_bytes")) return limit;
    }
  }
  return 0;
}

MemoryBudget memory_budget(const ServerConfig& config) {
  MemoryBudget b;
  if (config.limits.memory) {
    b.memory = config.limits.memory;
    b.from = "limits.memory";
  } else if ((b.memory = cgroup_memory_limit())) {
    b.from = "the container's limit";
  } else {
    b.memory = kAssumedMemory;
    b.from = "assumed";
  }
  size_t caches = config.cache.max_bytes ? config.cache.max_bytes : b.memory / 4;
  b.packets = caches / 5;
  b.records = caches - b.packets;
  b.waiting = b.memory / 4;
  return b;
}

}  // namespace rk8s::server
