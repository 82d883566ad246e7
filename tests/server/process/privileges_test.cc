// SPDX-License-Identifier: Apache-2.0
// Least privilege (server/process/privileges.h): after dropping, the
// process holds no capability, in any set, and can gain none.
#include "server/process/privileges.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace rk8s::server {
namespace {

// "CapEff 0000000000000000" and the like, from /proc/self/status.
std::string status_lines() {
  std::ifstream in("/proc/self/status");
  std::string out;
  for (std::string line; std::getline(in, line);)
    for (const char* key : {"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:"})
      if (line.rfind(key, 0) == 0) out += line + "\n";
  return out;
}

TEST(Privileges, NoCapabilityLeftAndNoneToGain) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::string out = drop_capabilities();
    out += "|" + status_lines();
    (void)!write(fds[1], out.data(), out.size());
    _exit(0);
  }
  close(fds[1]);
  std::string got;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, size_t(n));
  close(fds[0]);
  waitpid(child, nullptr, 0);
  EXPECT_EQ(got,
            "|CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n"
            "CapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1\n");
}

}  // namespace
}  // namespace rk8s::server
