// SPDX-License-Identifier: Apache-2.0
// Durations as Kubernetes writes them: whole units, their sum, their bound.
#include "server/settings/duration.h"

#include <gtest/gtest.h>

namespace rk8s::server {
namespace {

struct DurationCase {
  const char* text;
  bool ok;
  uint32_t seconds;
};

TEST(Duration, UnitsAndLimits) {
  const DurationCase cases[] = {
      {"30s", true, 30},
      {"5m", true, 300},
      {"1h", true, 3600},
      {"1h30m", true, 5400},
      {"0s", true, 0},
      {"1h1m1s", true, 3661},
      {"90s", true, 90},
      {"2147483647s", true, 2147483647},
      {"596523h", true, 2147482800},
      {"30", false, 0},
      {"0", false, 0},
      {"", false, 0},
      {"s", false, 0},
      {"5ms", false, 0},
      {"1.5h", false, 0},
      {"-5s", false, 0},
      {"+5s", false, 0},
      {" 5s", false, 0},
      {"5s ", false, 0},
      {"5S", false, 0},
      {"1d", false, 0},
      {"2147483648s", false, 0},
      {"596524h", false, 0},
      {"99999999999999999999s", false, 0},
      {"1h30", false, 0},
  };
  for (const DurationCase& c : cases) {
    uint32_t seconds = 12345;
    EXPECT_EQ(parse_duration(c.text, seconds), c.ok) << c.text;
    if (c.ok) {
      EXPECT_EQ(seconds, c.seconds) << c.text;
    }
  }
}

}  // namespace
}  // namespace rk8s::server
