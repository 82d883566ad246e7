// SPDX-License-Identifier: Apache-2.0
// The upstreams of a zone (server/forward/upstreams.h): the order to try
// them in by policy, down after kMaxFails failures in a row, probed until
// they answer.
#include "server/forward/upstreams.h"

#include <gtest/gtest.h>

#include <future>
#include <set>

#include "server/forward/metrics.h"
#include "tests/server/fixture.h"
#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

// `n` upstreams on 127.0.0.1 (ports 5301...), never asked: the loop given
// to failed() is not run.
struct Zone {
  ForwardMetrics metrics;
  Strings warnings;
  std::shared_ptr<Upstreams> upstreams;
  Loop loop;
  Zone(Policy policy, int n) {
    ForwardConfig config;
    config.policy = policy;
    for (int i = 0; i < n; i++) config.upstreams.push_back(loopback_upstream(uint16_t(5301 + i)));
    upstreams = std::make_shared<Upstreams>(config, metrics,
                                            [this](const std::string& w) { warnings.push_back(w); });
  }
  void fail(size_t i) { upstreams->failed(i, loop); }
};

using Order = std::vector<size_t>;

struct PolicyCase {
  const char* rule;
  Policy policy;
  std::vector<Order> orders;  // order() called once for each
};

TEST(UpstreamPolicy, SequentialAndRoundRobinOrders) {
  const PolicyCase cases[] = {
      {"Sequential: always from the first", Policy::sequential, {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}}},
      {"RoundRobin: each call one further",
       Policy::round_robin,
       {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 1, 2}}},
  };
  for (const PolicyCase& c : cases) {
    Zone zone(c.policy, 3);
    for (const Order& want : c.orders) EXPECT_EQ(zone.upstreams->order(), want) << c.rule;
  }
}

TEST(UpstreamPolicy, RandomStartsAnywhereAndGoesRound) {
  Zone zone(Policy::random, 3);
  std::set<size_t> firsts;
  for (int i = 0; i < 300; i++) {
    Order order = zone.upstreams->order();
    ASSERT_EQ(order.size(), 3u);
    for (size_t k = 0; k < 3; k++) EXPECT_EQ(order[k], (order[0] + k) % 3);
    firsts.insert(order[0]);
  }
  EXPECT_EQ(firsts, (std::set<size_t>{0, 1, 2}));
}

TEST(UpstreamHealth, DownAfterTwoFailuresInARowThenSkipped) {
  Zone zone(Policy::sequential, 3);
  const std::string second = zone.upstreams->at(1).text;
  zone.fail(1);
  EXPECT_EQ(zone.upstreams->order(), (Order{0, 1, 2})) << "one failure";
  zone.upstreams->succeeded(1);
  zone.fail(1);
  EXPECT_EQ(zone.upstreams->order(), (Order{0, 1, 2})) << "a success in between starts the count over";
  EXPECT_TRUE(zone.warnings.empty());
  zone.fail(1);
  EXPECT_EQ(zone.upstreams->order(), (Order{0, 2}));
  EXPECT_TRUE(zone.upstreams->any_healthy());
  EXPECT_EQ(zone.warnings,
            Strings{"upstream " + second + " down after 2 failures in a row, asked again every 500 ms"});
  zone.fail(1);
  EXPECT_EQ(zone.warnings.size(), 1u) << "said once";

  zone.upstreams->succeeded(1);
  EXPECT_EQ(zone.upstreams->order(), (Order{0, 1, 2}));
  EXPECT_EQ(zone.warnings.back(), "upstream " + second + " answers again");
}

TEST(UpstreamHealth, AllDownOneIsTriedAnyway) {
  Zone zone(Policy::sequential, 2);
  for (size_t i : {0, 0, 1, 1}) zone.fail(i);
  EXPECT_FALSE(zone.upstreams->any_healthy());
  EXPECT_EQ(zone.warnings.back(), "upstream " + zone.upstreams->at(1).text +
                                      " down after 2 failures in a row, asked again every 500 ms; "
                                      "every upstream of its zones is down");
  EXPECT_NE(zone.metrics.render().find("resolv_k8s_forward_healthcheck_broken_total 1\n"), std::string::npos);
  for (int i = 0; i < 20; i++) {
    Order order = zone.upstreams->order();
    ASSERT_EQ(order.size(), 1u);
    EXPECT_LT(order[0], 2u);
  }
}

// Down, the upstream is probed with ". IN NS" on the loop until it
// answers; then it is back.
TEST(UpstreamHealth, ProbedUntilItAnswers) {
  Responder upstream([](const Message& q) { return std::vector<Message>{reply_to(q)}; });
  ForwardConfig config;
  config.policy = Policy::sequential;
  config.upstreams = {upstream.upstream()};
  ForwardMetrics metrics;
  std::promise<void> back;
  std::mutex mutex;
  Strings warnings;
  auto upstreams = std::make_shared<Upstreams>(config, metrics, [&](const std::string& w) {
    std::lock_guard<std::mutex> lock(mutex);
    warnings.push_back(w);
    if (w.find("answers again") != std::string::npos) back.set_value();
  });
  LoopThread thread;
  thread.call([&] {
    upstreams->failed(0, thread.loop());
    upstreams->failed(0, thread.loop());
  });
  ASSERT_EQ(back.get_future().wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
  thread.stop();
  EXPECT_TRUE(upstreams->any_healthy());
  EXPECT_EQ(warnings.size(), 2u);
  const std::vector<Message> probes = upstream.queries();
  ASSERT_EQ(probes.size(), 1u);
  dns::Reader r(probes[0].data(), probes[0].size());
  dns::Header h;
  dns::Question q;
  ASSERT_TRUE(r.header(h) && r.question(q));
  EXPECT_EQ(name_text(q.name) + " " + type_to_text(q.type), ". NS");
}

}  // namespace
}  // namespace rk8s::server::test
