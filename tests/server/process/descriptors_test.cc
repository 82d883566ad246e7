// SPDX-License-Identifier: Apache-2.0
// Descriptors (server/process/descriptors.h): the limits that take one
// each, lowered together when they do not fit.
#include "server/process/descriptors.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

namespace rk8s::server {
namespace {

TEST(FitDescriptors, LowersTheLimitsTogether) {
  const struct {
    const char* rule;
    size_t available, reserved;
    size_t want_concurrent, want_tcp, want_http;
    bool lowered;
  } cases[] = {
      {"room for all", 1 << 20, 100, 1000, 256, 16, false},
      {"just room", 1372, 100, 1000, 256, 16, false},
      {"the container's 1024", 1024, 100, 726, 185, 11, true},
      {"nothing left but one each", 100, 100, 1, 1, 1, true},
  };
  for (const auto& c : cases) {
    Limits l;
    std::string said = fit_descriptors(l, c.available, c.reserved);
    EXPECT_EQ(l.max_concurrent, c.want_concurrent) << c.rule;
    EXPECT_EQ(l.max_tcp_clients, c.want_tcp) << c.rule;
    EXPECT_EQ(l.max_http_clients, c.want_http) << c.rule;
    EXPECT_EQ(!said.empty(), c.lowered) << c.rule << ": " << said;
    if (c.lowered) EXPECT_EQ(said.find("limits lowered to fit " + std::to_string(c.available)), 0u) << said;
  }
}

TEST(Descriptors, RaisedToTheHardLimitAndCounted) {
  size_t limit = raise_descriptor_limit();
  rlimit r;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &r), 0);
  EXPECT_EQ(r.rlim_cur, r.rlim_max);
  EXPECT_EQ(limit, r.rlim_cur == RLIM_INFINITY ? SIZE_MAX : size_t(r.rlim_cur));
  size_t open = open_descriptors();
  int fd = dup(0);
  EXPECT_EQ(open_descriptors(), open + 1);
  close(fd);
}

}  // namespace
}  // namespace rk8s::server
