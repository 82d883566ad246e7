// SPDX-License-Identifier: Apache-2.0
// The bytes held for waiting queries (server/forward/held_bytes.h): the
// budget in all, each client's share of it while others hold some, and a
// charge given back when it ends.
#include "server/forward/held_bytes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

ClientKey client(uint8_t last) { return ClientKey::of(client_ip(last)); }

// Charges made in order, each kept; whether each was made, and the bytes
// held after them.
TEST(HeldBytes, TheBudgetAndEachClientsShare) {
  struct Take {
    uint8_t from;
    size_t bytes;
    bool charged;
  };
  const struct {
    const char* rule;
    size_t budget;
    std::vector<Take> takes;
    size_t used;
  } cases[] = {
      {"alone: half the budget", 1000, {{1, 400, true}, {1, 100, true}, {1, 1, false}}, 500},
      {"a second client: a third each, what is held stays",
       1200,
       {{1, 600, true}, {2, 400, true}, {2, 1, false}, {1, 1, false}},
       1000},
      {"the budget in all, whatever the shares", 1000, {{1, 300, true}, {2, 300, true}, {3, 250, true},
                                                        {4, 200, false}, {4, 150, true}, {5, 1, false}},
       1000},
      {"the last share's worth kept for a client that holds none",
       1000,
       {{1, 400, true}, {2, 300, true}, {2, 30, false}, {3, 250, true}},
       950},
      {"nothing fits in none", 0, {{1, 1, false}}, 0},
      {"a charge larger than the share is never made", 1000, {{1, 501, false}, {1, 500, true}}, 500},
  };
  for (const auto& c : cases) {
    HeldBytes held(c.budget);
    std::vector<HeldBytes::Charge> kept;
    std::string got, want;
    for (const Take& t : c.takes) {
      kept.push_back(held.charge(client(t.from), t.bytes));
      got += kept.back() ? "y" : "n";
      want += t.charged ? "y" : "n";
    }
    EXPECT_EQ(got, want) << c.rule;
    EXPECT_EQ(held.used(), c.used) << c.rule;
  }
}

TEST(HeldBytes, AChargeIsGivenBackOnceWhenReleasedOrEnded) {
  HeldBytes held(1000);
  {
    HeldBytes::Charge a = held.charge(client(1), 300);
    HeldBytes::Charge b = std::move(a);
    EXPECT_FALSE(a) << "moved";
    EXPECT_EQ(held.used(), 300u);
    b.release();
    EXPECT_FALSE(b);
    EXPECT_EQ(held.used(), 0u);
    b.release();
    EXPECT_EQ(held.used(), 0u) << "given back once";
    HeldBytes::Charge c = held.charge(client(1), 200);
    c = held.charge(client(2), 100);
    EXPECT_EQ(held.used(), 100u) << "the charge replaced is given back";
  }
  EXPECT_EQ(held.used(), 0u) << "given back as it ends";
  EXPECT_EQ(held.peak(), 300u) << "the most it held";
  EXPECT_TRUE(held.charge(client(1), 500)) << "alone again: half of it";
  EXPECT_EQ(held.peak(), 500u);
}

}  // namespace
}  // namespace rk8s::server::test
