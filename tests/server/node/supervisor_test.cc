// SPDX-License-Identifier: Apache-2.0
// The supervisor (server/node/supervisor.h): the server runs in a child,
// the set-up is checked once the child listens; after the child's orderly
// exit the supervisor tears down and ends with its status. A child that
// dies otherwise is followed by a tear-down and a new child a second later,
// whose set-up is checked once it listens. A first set-up that fails ends
// it all. A SIGTERM between fork and the child's pid noted reaches the
// child. The set-up itself (CAP_NET_ADMIN, this machine's network) is the
// node sandbox's: tests/node/crash_test.sh.
#include "server/node/supervisor.h"

#include <gtest/gtest.h>
#include <pthread.h>
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
  int status = supervise(Supervised{[&](int) {
                                      runs++;  // the child's copy
                                      std::ofstream(marker) << getpid();
                                      return 0;
                                    },
                                    [&] { return ++checks, true; }, [&](bool) { return ++tear_downs, true; }, 60});
  EXPECT_EQ(status, 0);
  EXPECT_EQ(runs, 0) << "serve ran here, not in a child";
  EXPECT_EQ(tear_downs, 1);
  EXPECT_EQ(checks, 1);
  pid_t child = 0;
  std::ifstream(marker) >> child;
  EXPECT_GT(child, 0);
  EXPECT_NE(child, getpid());
}

// The tear-down after a crash is not the last: what it would ask (the
// DaemonSet, of the API server) waits for the supervisor's end, after the
// new child.
TEST(Supervisor, ADeadChildIsFollowedByATearDownACheckAndANewChild) {
  SavedSignals saved;
  const std::string marker = testing::TempDir() + "supervisor_test_died";
  std::remove(marker.c_str());
  int checks = 0;
  std::string tear_downs;  // "l" the last, "r" before a restart
  int status = supervise(Supervised{[&](int) {
                                      if (std::ifstream(marker)) return 0;  // the second child
                                      std::ofstream(marker) << getpid();
                                      abort();
                                    },
                                    [&] { return ++checks, true; },
                                    [&](bool last) { return tear_downs += last ? "l" : "r", true; }, 60});
  EXPECT_EQ(status, 0);
  EXPECT_EQ(tear_downs, "rl") << "after each child, the last one's the last";
  EXPECT_EQ(checks, 2) << "once each child listens";
}

// A SIGTERM while the supervisor waits to start the server again: the
// last tear-down, then the end.
TEST(Supervisor, ASigtermBetweenChildrenEndsWithTheLastTearDown) {
  SavedSignals saved;
  std::string tear_downs;
  int status = supervise(Supervised{[](int) -> int { abort(); }, [] { return true; },
                                    [&](bool last) {
                                      if (!last) kill(getpid(), SIGTERM);  // at the first tear-down
                                      return tear_downs += last ? "l" : "r", true;
                                    },
                                    60});
  EXPECT_EQ(status, 0);
  EXPECT_EQ(tear_downs, "rl");
}

// Until the child listens, kube-dns's address must stay kube-dns's: the
// set-up waits for the child to close `listening`.
TEST(Supervisor, TheSetUpWaitsForTheChildToListen) {
  SavedSignals saved;
  const std::string bound = testing::TempDir() + "supervisor_test_bound";
  std::remove(bound.c_str());
  bool bound_at_check = false;
  int status = supervise(Supervised{[&](int listening) {
                                      usleep(200'000);  // a slow start
                                      std::ofstream(bound) << 1;
                                      close(listening);
                                      usleep(100'000);
                                      return 0;
                                    },
                                    [&] { return bound_at_check = bool(std::ifstream(bound)), true; },
                                    [](bool) { return true; }, 60});
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(bound_at_check);
}

TEST(Supervisor, AFirstSetUpThatFailsEndsItAll) {
  SavedSignals saved;
  int tear_downs = 0;
  int status = supervise(Supervised{[](int listening) {
                                      close(listening);
                                      pause();  // until the supervisor's SIGTERM
                                      return 0;
                                    },
                                    [] { return false; }, [&](bool) { return ++tear_downs, true; }, 60});
  EXPECT_EQ(status, 1);
  EXPECT_EQ(tear_downs, 1) << "what was set up, removed";
}

// Armed, the parent's fork handler raises SIGTERM: the supervisor gets it
// after fork, before fork returns the child's pid.
volatile sig_atomic_t term_at_fork = 0;
void raise_term_at_fork() {
  if (term_at_fork) {
    term_at_fork = 0;
    raise(SIGTERM);
  }
}

TEST(Supervisor, ASigtermAtForkReachesTheChild) {
  SavedSignals saved;
  static const bool registered = pthread_atfork(nullptr, raise_term_at_fork, nullptr) == 0;
  ASSERT_TRUE(registered);
  constexpr int kNeverTold = 3;
  int checks = 0, tear_downs = 0;
  term_at_fork = 1;
  int status = supervise(Supervised{[](int listening) {
                                      close(listening);
                                      sigset_t term;
                                      sigemptyset(&term);
                                      sigaddset(&term, SIGTERM);
                                      sigprocmask(SIG_BLOCK, &term, nullptr);
                                      timespec bound{10, 0};  // a failure, not a hang
                                      return sigtimedwait(&term, nullptr, &bound) == SIGTERM ? 0 : kNeverTold;
                                    },
                                    [&] { return ++checks, true; }, [&](bool) { return ++tear_downs, true; }, 60});
  // The child ended on it: by its default action before serve, or in serve.
  EXPECT_NE(status, kNeverTold) << "the SIGTERM was not passed on";
  EXPECT_EQ(checks, 0) << "no set-up for a server that is to stop";
  EXPECT_EQ(tear_downs, 1);
}

}  // namespace
}  // namespace rk8s::server
