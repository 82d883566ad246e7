// SPDX-License-Identifier: Apache-2.0
// Connections shared out by client address (server/net/client_share.h):
// the bound in all, each address's share of it while others hold some,
// and the cap per address.
#include "server/net/client_share.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <string>

namespace rk8s::server::test {
namespace {

ClientKey client(const char* text) {
  sockaddr_storage ss{};
  if (strchr(text, ':')) {
    auto& sin6 = reinterpret_cast<sockaddr_in6&>(ss);
    sin6.sin6_family = AF_INET6;
    inet_pton(AF_INET6, text, &sin6.sin6_addr);
  } else {
    auto& sin = reinterpret_cast<sockaddr_in&>(ss);
    sin.sin_family = AF_INET;
    inet_pton(AF_INET, text, &sin.sin_addr);
  }
  return ClientKey::of(reinterpret_cast<const sockaddr*>(&ss));
}

// How many `who` takes before its first refusal, and that refusal.
std::pair<size_t, ClientSlots::Refusal> fill(ClientSlots& slots, const ClientKey& who, size_t bound,
                                             size_t per_client) {
  size_t n = 0;
  for (;; n++)
    if (ClientSlots::Refusal r = slots.take(who, bound, per_client); r != ClientSlots::Refusal::none) return {n, r};
}

using Refusal = ClientSlots::Refusal;

TEST(ClientSlots, EachNewClientFindsRoomUntilTheBound) {
  ClientSlots slots;
  EXPECT_EQ(fill(slots, client("10.0.0.1"), 12, 100), std::make_pair(size_t(6), Refusal::share)) << "alone: half";
  EXPECT_EQ(fill(slots, client("10.0.0.2"), 12, 100), std::make_pair(size_t(2), Refusal::share))
      << "two: up to the last third, kept";
  EXPECT_EQ(fill(slots, client("10.0.0.3"), 12, 100), std::make_pair(size_t(1), Refusal::share))
      << "three: one, the last quarter kept";
  for (const char* newcomer : {"10.0.0.4", "10.0.0.5", "10.0.0.6"})
    EXPECT_EQ(slots.take(client(newcomer), 12, 100), Refusal::none) << newcomer << " finds room";
  EXPECT_EQ(slots.held(), 12u);
  EXPECT_EQ(slots.most(), 6u);
  EXPECT_EQ(slots.take(client("10.0.0.7"), 12, 100), Refusal::bound);
  slots.give(client("10.0.0.1"));
  EXPECT_EQ(slots.take(client("10.0.0.1"), 12, 100), Refusal::share) << "over its share of seven";
  EXPECT_EQ(slots.take(client("10.0.0.7"), 12, 100), Refusal::none) << "a seventh finds the room";
}

// Clients that come one by one, each taking all it may, never take the
// room of the next: shares fall as they come, what they hold does not.
TEST(ClientSlots, ClientsThatCameOneByOneLeaveRoomForTheNext) {
  ClientSlots slots;
  for (int i = 1; i <= 12; i++) fill(slots, client(("10.0.1." + std::to_string(i)).c_str()), 256, 64);
  EXPECT_LT(slots.held(), 256u);
  EXPECT_EQ(slots.take(client("10.0.0.99"), 256, 64), Refusal::none);
}

TEST(ClientSlots, TheCapPerClientAndWhatIsGivenBack) {
  ClientSlots slots;
  EXPECT_EQ(fill(slots, client("10.0.0.1"), 100, 3), std::make_pair(size_t(3), Refusal::share));
  for (int i = 0; i < 3; i++) slots.give(client("10.0.0.1"));
  EXPECT_EQ(slots.held(), 0u);
  EXPECT_EQ(slots.most(), 0u);
  EXPECT_EQ(fill(slots, client("10.0.0.1"), 100, 3).first, 3u) << "taken again once given back";
}

// A client seen on an IPv4 socket and on a dual-stack one is one client;
// its IPv6 address is another.
TEST(ClientSlots, AnIPv4AddressAndItsMappedFormAreOneClient) {
  ClientSlots slots;
  EXPECT_EQ(slots.take(client("10.0.0.1"), 100, 2), Refusal::none);
  EXPECT_EQ(slots.take(client("::ffff:10.0.0.1"), 100, 2), Refusal::none);
  EXPECT_EQ(slots.take(client("10.0.0.1"), 100, 2), Refusal::share);
  EXPECT_EQ(slots.take(client("fd00::1"), 100, 2), Refusal::none);
  EXPECT_EQ(slots.most(), 2u);
}

}  // namespace
}  // namespace rk8s::server::test
