// SPDX-License-Identifier: Apache-2.0
// The public C API as conf and plan call it: an rk8s_* text read whole,
// asked again when the first room was short; resolv.conf loaded with the
// environment glibc reads too.
#include "tools/diagnose/api_client.h"

#include <gtest/gtest.h>
#include <string.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

TEST(ApiText, AllOfTheTextAskedAgainWithRoomEnough) {
  // 256 bytes hold 255 and the NUL; 256 need a second call.
  const std::pair<size_t, int> cases[] = {{0, 1}, {10, 1}, {255, 1}, {256, 2}, {1000, 2}, {70000, 2}};
  for (auto [length, calls] : cases) {
    const std::string text(length, 'x');
    int called = 0;
    // As the API writes: what fits and a NUL, and the whole length.
    auto write = [&](char* out, size_t cap) {
      called++;
      size_t n = std::min(length, cap - 1);
      memcpy(out, text.data(), n);
      out[n] = '\0';
      return length;
    };
    EXPECT_EQ(text, api_text(write)) << length;
    EXPECT_EQ(calls, called) << length;
  }
}

struct LoadCase {
  std::string localdomain, res_options;  // "-" for unset
  std::string search;
  unsigned ndots;
};

TEST(LoadConf, TheFileAndTheEnvironmentGlibcReads) {
  const std::string path = test::temp_file("api.conf", "nameserver 10.0.0.1\nsearch a.example\noptions ndots:2\n");
  const LoadCase cases[] = {
      {"-", "-", "a.example", 2},
      {"b.example c.example", "-", "b.example c.example", 2},
      {"-", "ndots:4", "a.example", 4},
      {"b.example", "ndots:7 attempts:1", "b.example", 7},
  };
  for (const LoadCase& c : cases) {
    SCOPED_TRACE(c.localdomain + " / " + c.res_options);
    c.localdomain == "-" ? unsetenv("LOCALDOMAIN") : setenv("LOCALDOMAIN", c.localdomain.c_str(), 1);
    c.res_options == "-" ? unsetenv("RES_OPTIONS") : setenv("RES_OPTIONS", c.res_options.c_str(), 1);
    const rk8s_conf* conf = load_conf(path, RK8S_DIALECT_GLIBC);
    ASSERT_NE(nullptr, conf);
    std::string search;
    for (size_t i = 0; i < rk8s_conf_search_count(conf); i++)
      search += (i ? " " : "") + api_text([&](char* out, size_t cap) { return rk8s_conf_search(conf, i, out, cap); });
    EXPECT_EQ(c.search, search);
    EXPECT_EQ(c.ndots, rk8s_conf_ndots(conf));
  }
  unsetenv("LOCALDOMAIN");
  unsetenv("RES_OPTIONS");
  test::Output run =
      test::run_captured([] { return load_conf("/nonexistent/resolv.conf", RK8S_DIALECT_MUSL) ? 0 : 1; });
  EXPECT_EQ(1, run.status);
  EXPECT_EQ("resolv-k8s: /nonexistent/resolv.conf: No such file or directory\n", run.err);
}

}  // namespace
}  // namespace rk8s::tools
