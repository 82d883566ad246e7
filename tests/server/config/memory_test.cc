// SPDX-License-Identifier: Apache-2.0
// The memory the server may use (server/config/memory.h): the container's
// limit read from cgroup v2 and v1 as a container sees them, and the
// caches' shares of it.
#include "server/config/memory.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

namespace rk8s::server {
namespace {

// A scratch folder: FILE=TEXT pairs written under it, folders made.
struct Tree {
  std::string root;
  Tree() {
    char dir[] = "/tmp/rk8s-memory-XXXXXX";
    root = mkdtemp(dir);
  }
  ~Tree() { (void)system(("rm -rf " + root).c_str()); }
  void put(const std::string& file, const std::string& text) {
    std::string path = root + "/" + file;
    for (size_t at = path.find('/', root.size() + 1); at != std::string::npos; at = path.find('/', at + 1))
      mkdir(path.substr(0, at).c_str(), 0755);
    std::ofstream(path) << text;
  }
};

TEST(CgroupMemoryLimit, AsAContainerSeesIt) {
  const struct {
    const char* rule;
    const char* self;  // /proc/self/cgroup
    std::vector<std::pair<const char*, const char*>> files;
    size_t want;
  } cases[] = {
      {"v2, its own namespace: the mount's root", "0::/\n", {{"memory.max", "134217728\n"}}, 134217728},
      {"v2, a path below", "0::/kubepods/pod1/c1\n",
       {{"kubepods/pod1/c1/memory.max", "max\n"}, {"kubepods/pod1/memory.max", "268435456\n"}}, 268435456},
      {"v2, the lowest on the way up", "0::/a/b\n",
       {{"a/b/memory.max", "300000000\n"}, {"a/memory.max", "200000000\n"}}, 200000000},
      {"v2, none", "0::/a\n", {{"a/memory.max", "max\n"}}, 0},
      {"v1, among other controllers", "5:cpuacct,cpu:/x\n4:memory:/x\n",
       {{"memory/x/memory.limit_in_bytes", "67108864\n"}}, 67108864},
      {"v1, the host's path not mounted: the mount's root", "4:memory:/kubepods/p/c\n",
       {{"memory/memory.limit_in_bytes", "67108864\n"}}, 67108864},
      {"v1, unlimited", "4:memory:/\n", {{"memory/memory.limit_in_bytes", "9223372036854771712\n"}}, 0},
      {"no memory controller", "3:cpu:/\n", {}, 0},
  };
  for (const auto& c : cases) {
    Tree t;
    t.put("self", c.self);
    for (const auto& [file, text] : c.files) t.put(std::string("fs/") + file, text);
    EXPECT_EQ(cgroup_memory_limit(t.root + "/self", t.root + "/fs"), c.want) << c.rule;
  }
}

TEST(MemoryBudget, OnePlaceSetsEveryShare) {
  ServerConfig c;
  c.limits.memory = 128 << 20;
  MemoryBudget b = memory_budget(c);
  EXPECT_EQ(b.memory, size_t(128) << 20);
  EXPECT_STREQ(b.from, "limits.memory");
  EXPECT_EQ(b.records + b.packets, size_t(32) << 20) << "a quarter";
  EXPECT_EQ(b.packets, (size_t(32) << 20) / 5);
  EXPECT_EQ(b.waiting, size_t(32) << 20) << "another quarter for what waits";
  c.cache.max_bytes = 10 << 20;
  b = memory_budget(c);
  EXPECT_EQ(b.records + b.packets, size_t(10) << 20) << "cache.maxBytes";
  EXPECT_EQ(b.waiting, size_t(32) << 20) << "whatever the caches take";
}

}  // namespace
}  // namespace rk8s::server
