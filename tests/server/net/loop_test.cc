// SPDX-License-Identifier: Apache-2.0
// The event loop (server/net/loop.h): work handed from any thread runs on
// the loop's, in order; from the loop's own thread at once; after() later.
#include "server/net/loop.h"

#include <gtest/gtest.h>

#include <future>

#include "tests/server/fixture.h"
#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

TEST(Loop, PostFromAnotherThreadRunsOnTheLoopInOrder) {
  LoopThread thread;
  std::vector<int> seen;  // the loop's thread only
  for (int i = 0; i < 100; i++) thread.loop().post([&seen, i] { seen.push_back(i); });
  auto [loop_thread, current] =
      thread.call([] { return std::make_pair(std::this_thread::get_id(), Loop::current()); });
  EXPECT_NE(loop_thread, std::this_thread::get_id());
  EXPECT_EQ(current, &thread.loop());
  EXPECT_EQ(Loop::current(), nullptr) << "outside the loops";
  std::vector<int> want(100);
  for (int i = 0; i < 100; i++) want[i] = i;
  EXPECT_EQ(thread.call([&] { return seen; }), want);
}

TEST(Loop, PostOnTheLoopsOwnThreadRunsAtOnce) {
  LoopThread thread;
  EXPECT_TRUE(thread.call([&] {
    bool ran = false;
    thread.loop().post([&] { ran = true; });
    return ran;
  }));
}

TEST(Loop, AfterRunsLaterOnTheLoopTheShortestFirst) {
  LoopThread thread;
  Strings order;  // the loop's thread only
  std::promise<Strings> done;
  thread.loop().post([&] {
    thread.loop().after(30, [&] {
      order.push_back(Loop::current() == &thread.loop() ? "30 ms, on the loop" : "30 ms, elsewhere");
      done.set_value(order);
    });
    thread.loop().after(0, [&] { order.push_back("0 ms"); });
    order.push_back("posted");
  });
  EXPECT_EQ(done.get_future().get(), (Strings{"posted", "0 ms", "30 ms, on the loop"}));
}

}  // namespace
}  // namespace rk8s::server::test
