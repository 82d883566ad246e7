// SPDX-License-Identifier: Apache-2.0
// limits.clientQPS (server/process/client_rate.h): a second's worth of
// queries from one address, refilled as time goes; others unaffected.
#include "server/process/client_rate.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

namespace rk8s::server {
namespace {

using namespace std::chrono_literals;

sockaddr_storage from(const char* v4) {
  sockaddr_storage s{};
  auto& a = reinterpret_cast<sockaddr_in&>(s);
  a.sin_family = AF_INET;
  inet_pton(AF_INET, v4, &a.sin_addr);
  return s;
}

TEST(ClientRate, ASecondsWorthThenItsRate) {
  ClientRate rate(10);
  ClientRate::Clock::time_point t0 = ClientRate::Clock::now();
  int allowed = 0;
  for (int i = 0; i < 20; i++) allowed += rate.allow(from("10.0.0.1"), t0);
  EXPECT_EQ(allowed, 10);
  EXPECT_EQ(rate.dropped(), 10u);
  EXPECT_TRUE(rate.allow(from("10.0.0.2"), t0)) << "another address";
  EXPECT_FALSE(rate.allow(from("10.0.0.1"), t0 + 50ms));
  EXPECT_TRUE(rate.allow(from("10.0.0.1"), t0 + 150ms)) << "refilled at 10 a second";
  allowed = 0;
  for (int i = 0; i < 20; i++) allowed += rate.allow(from("10.0.0.1"), t0 + 10s);
  EXPECT_EQ(allowed, 10) << "never more than a second's worth";
}

TEST(ClientRate, ZeroIsNoLimit) {
  ClientRate rate(0);
  for (int i = 0; i < 1000; i++) EXPECT_TRUE(rate.allow(from("10.0.0.1"), ClientRate::Clock::now()));
  EXPECT_EQ(rate.dropped(), 0u);
}

}  // namespace
}  // namespace rk8s::server
