// SPDX-License-Identifier: Apache-2.0
// Once: run by one thread, waited for by the others, run again in a child
// forked while the parent's run was under way. FixedVec's copies.
#include "util/base.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

namespace rk8s {
namespace {

std::atomic<int> runs;
std::atomic<bool> release;

void count_slowly() {
  runs++;
  while (!release) std::this_thread::yield();
}

TEST(Once, OneRunTheOthersWait) {
  static Once once;
  runs = 0;
  release = false;
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; i++) threads.emplace_back([&] {
    once.run(count_slowly);
    done++;
  });
  while (runs == 0) std::this_thread::yield();
  usleep(20000);
  EXPECT_EQ(done, 0);  // all wait for the run
  release = true;
  for (auto& t : threads) t.join();
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(done, 8);
  once.run(count_slowly);
  EXPECT_EQ(runs, 1);
}

TEST(Once, ForkedMidRunRunsAgain) {
  static Once once;
  runs = 0;
  release = false;
  std::thread runner([] { once.run(count_slowly); });
  while (runs == 0) std::this_thread::yield();
  pid_t child = fork();
  if (child == 0) {
    release = true;  // the child's own copy: its run returns at once
    once.run(count_slowly);
    _exit(runs == 2 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  release = true;
  runner.join();
  EXPECT_EQ(runs, 1);
}

// A copy holds the items in use, whatever the target held before.
TEST(FixedVec, CopiesTheItemsInUse) {
  FixedVec<int, 8> a;
  a.push(1);
  a.push(2);
  FixedVec<int, 8> b(a);
  ASSERT_EQ(b.count, 2u);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[1], 2);
  FixedVec<int, 8> c;
  for (int v : {9, 8, 7}) c.push(v);
  c = a;
  ASSERT_EQ(c.count, 2u);
  EXPECT_EQ(c[0], 1);
  EXPECT_EQ(c[1], 2);
  FixedVec<int, 8>& same = c;
  c = same;
  ASSERT_EQ(c.count, 2u);
  EXPECT_EQ(c[1], 2);
  c.push(3);  // the old third item is gone
  EXPECT_EQ(c[2], 3);
}

}  // namespace
}  // namespace rk8s
