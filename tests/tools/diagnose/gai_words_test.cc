// SPDX-License-Identifier: Apache-2.0
// The words plan and lookup read and print: address families and
// getaddrinfo's error codes.
#include "tools/diagnose/gai_words.h"

#include <gtest/gtest.h>
#include <netdb.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

TEST(Family, EachWordAndBack) {
  const std::pair<const char*, int> cases[] = {{"inet", AF_INET}, {"inet6", AF_INET6}, {"unspec", AF_UNSPEC}};
  for (auto [word, family] : cases) {
    EXPECT_EQ(family, parse_family(word)) << word;
    EXPECT_STREQ(word, family_name(family));
  }
  for (const char* bad : {"", "INET", "ipv4", "inet4"})
    test::expect_usage_error([&] { return parse_family(bad); },
                             "unknown family '" + std::string(bad) + "': inet, inet6 or unspec");
}

TEST(EaiName, EachCodeByItsName) {
  const std::pair<int, const char*> cases[] = {
      {0, "0"},
      {EAI_NONAME, "EAI_NONAME"},
      {EAI_NODATA, "EAI_NODATA"},
      {EAI_AGAIN, "EAI_AGAIN"},
      {EAI_FAIL, "EAI_FAIL"},
      {EAI_FAMILY, "EAI_FAMILY"},
      {EAI_SERVICE, "EAI_SERVICE"},
      {EAI_BADFLAGS, "EAI_BADFLAGS"},
      {EAI_MEMORY, "EAI_MEMORY"},
      {EAI_SYSTEM, "EAI_SYSTEM"},
      {EAI_OVERFLOW, "EAI_?"},
      {1, "EAI_?"},
  };
  for (auto [code, name] : cases) EXPECT_STREQ(name, eai_name(code)) << code;
}

}  // namespace
}  // namespace rk8s::tools
