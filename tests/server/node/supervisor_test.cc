// SPDX-License-Identifier: Apache-2.0
// The supervisor (server/node/supervisor.h): the server runs in a child;
// after the child's orderly exit the supervisor tears down and ends with
// its status. A child that dies otherwise is followed by a tear-down, a
// check that puts the set-up back, and a new child a second later. The
// set-up itself (CAP_NET_ADMIN, this machine's network) is the node
// sandbox's: tests/node/crash_test.sh.
#include "server/node/supervisor.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace rk8s::server {
namespace {

// supervise() passes these signals on to the child: as they were after.
struct SavedSignals {
  const int signals[3] = {SIGTERM, SIGINT, SIGHUP};
  struct sigaction before[3];
  SavedSignals() {
    for (int i = 0; i < 3; i++) sigaction(signals[i], nullptr, &before[i]);
  }
  ~SavedSignals() {
    for (int i = 0; i < 3; i++) sigaction(signals[i], &before[i], nullptr);
  }
};

TEST(Supervisor, AnOrderlyExitTearsDownAndEndsWithTheChildsStatus) {
  SavedSignals saved;
  const std::string marker = testing::TempDir() + "supervisor_test_child";
  std::remove(marker.c_str());
  int runs = 0, checks = 0, tear_downs = 0;
  int status = supervise(Supervised{[&] {
                                      runs++;  // the child's copy
                                      std::ofstream(marker) << getpid();
                                      return 0;
                                    },
                                    [&] { checks++; }, [&] { return ++tear_downs, true; }, 60});
  EXPECT_EQ(status, 0);
  EXPECT_EQ(runs, 0) << "serve ran here, not in a child";
  EXPECT_EQ(tear_downs, 1);
  EXPECT_EQ(checks, 0);
  pid_t child = 0;
  std::ifstream(marker) >> child;
  EXPECT_GT(child, 0);
  EXPECT_NE(child, getpid());
}

TEST(Supervisor, ADeadChildIsFollowedByATearDownACheckAndANewChild) {
  SavedSignals saved;
  const std::string marker = testing::TempDir() + "supervisor_test_died";
  std::remove(marker.c_str());
  int checks = 0, tear_downs = 0;
  int status = supervise(Supervised{[&] {
                                      if (std::ifstream(marker)) return 0;  // the second child
                                      std::ofstream(marker) << getpid();
                                      abort();
                                    },
                                    [&] { checks++; }, [&] { return ++tear_downs, true; }, 60});
  EXPECT_EQ(status, 0);
  EXPECT_EQ(tear_downs, 2) << "after each child";
  EXPECT_EQ(checks, 1) << "before the second child";
}

}  // namespace
}  // namespace rk8s::server
