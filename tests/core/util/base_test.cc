// SPDX-License-Identifier: Apache-2.0
// Once: run by one thread, waited for by the others, run again in a child
// forked while the parent's run was under way, a pthread_cancel of the
// runner acted on after the run. FixedVec's copies.
#include "util/base.h"

#include <gtest/gtest.h>
#include <pthread.h>
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

Once cancelled_once;
int pipe_fds[2];

void read_slowly() {
  runs++;
  char c;
  (void)!read(pipe_fds[0], &c, 1);  // a cancellation point
}

void* run_then_test_cancel(void*) {
  cancelled_once.run(read_slowly);
  pthread_testcancel();
  return nullptr;
}

TEST(Once, CancelledMidRunIsActedOnAfterTheRun) {
  runs = 0;
  ASSERT_EQ(pipe(pipe_fds), 0);
  pthread_t runner;
  ASSERT_EQ(pthread_create(&runner, nullptr, run_then_test_cancel, nullptr), 0);
  while (runs == 0) std::this_thread::yield();
  usleep(20000);  // in read()
  pthread_cancel(runner);
  usleep(20000);
  ASSERT_EQ(write(pipe_fds[1], "x", 1), 1);
  void* ended = nullptr;
  ASSERT_EQ(pthread_join(runner, &ended), 0);
  EXPECT_EQ(ended, PTHREAD_CANCELED);
  cancelled_once.run(read_slowly);  // done, not left running for good
  EXPECT_EQ(runs, 1);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
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
