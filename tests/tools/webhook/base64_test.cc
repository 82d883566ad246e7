// SPDX-License-Identifier: Apache-2.0
// Base64 both ways, its padding, and text that is not base64.
#include "tools/webhook/base64.h"

#include <gtest/gtest.h>

namespace rk8s::tools {
namespace {

TEST(Base64, BothWays) {
  const std::pair<const char*, const char*> cases[] = {{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
                                                       {"foob", "Zm9vYg=="}};
  for (auto [bytes, text] : cases) {
    EXPECT_EQ(text, base64(bytes));
    EXPECT_EQ(bytes, from_base64(text).value_or("(none)"));
  }
  EXPECT_EQ(std::string("\0\xff", 2), from_base64("AP8=").value_or(""));
  for (const char* bad : {"Zg=", "Zm9", "Zm9v!A==", "%%%%"}) EXPECT_FALSE(from_base64(bad)) << bad;
}

}  // namespace
}  // namespace rk8s::tools
