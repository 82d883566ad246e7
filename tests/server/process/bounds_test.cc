// SPDX-License-Identifier: Apache-2.0
// The bounds' families (server/process/bounds.h): each limit's setting and
// what it holds, by its knob's name; what the bounds turned away.
#include "server/process/bounds.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

TEST(Bounds, EachLimitAndWhatItHolds) {
  const std::string text =
      render_bounds({{"maxPending", 1024, 3}, {"cache.maxBytes", 1 << 20, 4096}, {"waitingBytes", 100, 10, 40}},
                    TurnedAway{1, 2, 5, 6, 3, 4});
  EXPECT_EQ(lines_starting(text, "resolv_k8s_limit"),
            (Strings{"resolv_k8s_limit{limit=\"maxPending\"} 1024", "resolv_k8s_limit{limit=\"cache.maxBytes\"} 1048576",
                     "resolv_k8s_limit{limit=\"waitingBytes\"} 100", "resolv_k8s_limit_used{limit=\"maxPending\"} 3",
                     "resolv_k8s_limit_used{limit=\"cache.maxBytes\"} 4096",
                     "resolv_k8s_limit_used{limit=\"waitingBytes\"} 10",
                     "resolv_k8s_limit_used_peak{limit=\"waitingBytes\"} 40"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_tcp"),
            (Strings{"resolv_k8s_tcp_refused_total 1", "resolv_k8s_tcp_unread_closed_total 2"}));
  EXPECT_EQ(lines_starting(text, "resolv_k8s_http_evicted_total"), Strings{"resolv_k8s_http_evicted_total 5"});
  EXPECT_EQ(lines_starting(text, "resolv_k8s_http_refused_total"), Strings{"resolv_k8s_http_refused_total 6"});
  EXPECT_EQ(lines_starting(text, "resolv_k8s_client_rate_dropped_total"),
            Strings{"resolv_k8s_client_rate_dropped_total 3"});
  EXPECT_EQ(lines_starting(text, "resolv_k8s_log_lines_held_back_total"),
            Strings{"resolv_k8s_log_lines_held_back_total 4"});
  EXPECT_EQ(lines_starting(text, "# TYPE").size(), 9u);
}

}  // namespace
}  // namespace rk8s::server::test
