// SPDX-License-Identifier: Apache-2.0
// The server's name operations (server/util/names.h).
#include "server/util/names.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

using test::N;

TEST(Names, LabelFromTheRight) {
  EXPECT_EQ(name_label_from_right(N("Pin._Zone.db"), 0), "db");
  EXPECT_EQ(name_label_from_right(N("Pin._Zone.db"), 1), "_zone");
  EXPECT_EQ(name_label_from_right(N("Pin._Zone.db"), 2), "pin");
  EXPECT_EQ(name_label_from_right(N("Pin._Zone.db"), 3), "");
  EXPECT_EQ(name_label_from_right(N("."), 0), "");
}

}  // namespace
}  // namespace rk8s::server
