// SPDX-License-Identifier: Apache-2.0
// The server's log lines (server/process/say.h): of those clients can make
// recur, a line like one said in the last kQuietSeconds, its numbers
// aside, is held back and counted; the others are all said.
#include "server/process/say.h"

#include <gtest/gtest.h>

namespace rk8s::server {
namespace {

TEST(Say, LimitedLinesLikeOneJustSaidAreHeldBack) {
  uint64_t held = lines_held_back();
  testing::internal::CaptureStderr();
  for (int i = 0; i < 1000; i++) say_limited("accept dns 127.0.0.1:" + std::to_string(i) + "/tcp: Too many open files");
  say_limited("another cause");
  say("configuration reloaded");
  say("configuration reloaded");
  std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out,
            "resolv-k8s-server: accept dns 127.0.0.1:0/tcp: Too many open files\n"
            "resolv-k8s-server: another cause\n"
            "resolv-k8s-server: configuration reloaded\n"
            "resolv-k8s-server: configuration reloaded\n");
  EXPECT_EQ(lines_held_back(), held + 999);
}

}  // namespace
}  // namespace rk8s::server
