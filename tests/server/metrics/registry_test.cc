// SPDX-License-Identifier: Apache-2.0
// The registry (server/metrics/registry.h): the version first, then each
// part's families in the order they were added.
#include "server/metrics/registry.h"

#include <gtest/gtest.h>

#include "resolv-k8s.h"
#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

TEST(Registry, TheVersionThenEachPartInOrder) {
  Registry r;
  r.add([] { return std::string("resolv_k8s_a 1\n"); });
  r.add([] { return std::string("resolv_k8s_b 2\n"); });
  EXPECT_EQ(lines_starting(r.render(), "resolv_k8s_"),
            (Strings{"resolv_k8s_build_info{version=\"" RK8S_VERSION "\"} 1", "resolv_k8s_a 1", "resolv_k8s_b 2"}));
}

}  // namespace
}  // namespace rk8s::server::test
