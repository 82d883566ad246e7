// SPDX-License-Identifier: Apache-2.0
// The supervisor (server/node/supervisor.h): the server runs in a child;
// its orderly exit ends the supervisor with its status, leaving the node
// as the server left it. A child that dies otherwise makes the supervisor
// tear the node's set-up down (CAP_NET_ADMIN, this machine's network) and
// start it again after a second: tests/node/crash_test.sh, in a node
// sandbox.
#include "server/node/supervisor.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace rk8s::server {
namespace {

TEST(Supervisor, AnOrderlyExitEndsItWithTheChildsStatus) {
  // supervise() passes these signals on to the child: as they were after.
  struct sigaction before[3];
  const int signals[] = {SIGTERM, SIGINT, SIGHUP};
  for (int i = 0; i < 3; i++) sigaction(signals[i], nullptr, &before[i]);

  const std::string marker = testing::TempDir() + "supervisor_test_child";
  std::remove(marker.c_str());
  NodeSetupConfig setup;
  setup.interface = "rk8s-test-none";
  setup.lock_file = testing::TempDir() + "supervisor_test.lock";
  int runs = 0;
  int status = supervise(setup, {}, [&] {
    runs++;  // the child's copy
    std::ofstream(marker) << getpid();
    return 0;
  });
  for (int i = 0; i < 3; i++) sigaction(signals[i], &before[i], nullptr);

  EXPECT_EQ(status, 0);
  EXPECT_EQ(runs, 0) << "serve ran here, not in a child";
  pid_t child = 0;
  std::ifstream(marker) >> child;
  EXPECT_GT(child, 0);
  EXPECT_NE(child, getpid());
}

}  // namespace
}  // namespace rk8s::server
