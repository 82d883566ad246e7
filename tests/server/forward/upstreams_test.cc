// SPDX-License-Identifier: Apache-2.0
// The upstreams of a zone (server/forward/upstreams.h): the order to try
// them in by policy; their health by probes on a loop, against loopback
// upstreams: names that time out never mark an upstream that answers its
// probes down, one that answers nothing is down after two probes and back
// at the first reply, each probe over the upstream's own transport.
#include "server/forward/upstreams.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <set>

#include "server/forward/metrics.h"
#include "tests/server/fixture.h"
#include "tests/server/loopback.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

using Order = std::vector<size_t>;

// A zone of `upstreams`; its warnings kept, and waited for.
struct Zone {
  ForwardMetrics metrics;
  std::mutex mutex;
  std::condition_variable said;
  Strings warnings;
  std::shared_ptr<Upstreams> upstreams;

  Zone(Policy policy, const std::vector<Upstream>& list, bool tcp_only = false) {
    ForwardConfig config;
    config.policy = policy;
    config.upstreams = list;
    config.tcp_only = tcp_only;
    upstreams = std::make_shared<Upstreams>(config, metrics, [this](const std::string& w) {
      std::lock_guard<std::mutex> lock(mutex);
      warnings.push_back(w);
      said.notify_all();
    });
  }
  Strings warned() {
    std::lock_guard<std::mutex> lock(mutex);
    return warnings;
  }
  // Until `n` lines were said (kWaitMs at most); the lines.
  Strings wait_for(size_t n) {
    std::unique_lock<std::mutex> lock(mutex);
    said.wait_for(lock, std::chrono::milliseconds(kWaitMs), [&] { return warnings.size() >= n; });
    return warnings;
  }
  std::string metric(const std::string& line_start) {
    Strings lines = lines_starting(metrics.render(), line_start);
    return lines.empty() ? "" : lines[0];
  }
};

// `n` upstreams on 127.0.0.1 (ports 5301...), never asked.
std::vector<Upstream> unasked(int n) {
  std::vector<Upstream> list;
  for (int i = 0; i < n; i++) list.push_back(loopback_upstream(uint16_t(5301 + i)));
  return list;
}

// A port on 127.0.0.1 that nothing listens on: a datagram to it is refused
// at once.
Upstream closed_upstream() { return loopback_upstream(free_port()); }

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
    Zone zone(c.policy, unasked(3));
    for (const Order& want : c.orders) EXPECT_EQ(zone.upstreams->order(), want) << c.rule;
  }
}

TEST(UpstreamPolicy, RandomStartsAnywhereAndGoesRound) {
  Zone zone(Policy::random, unasked(3));
  std::set<size_t> firsts;
  for (int i = 0; i < 300; i++) {
    Order order = zone.upstreams->order();
    ASSERT_EQ(order.size(), 3u);
    for (size_t k = 0; k < 3; k++) EXPECT_EQ(order[k], (order[0] + k) % 3);
    firsts.insert(order[0]);
  }
  EXPECT_EQ(firsts, (std::set<size_t>{0, 1, 2}));
}

// The question of a probe, as text.
std::string question_of(const Message& m) {
  dns::Reader r(m.data(), m.size());
  dns::Header h;
  dns::Question q;
  if (!r.header(h) || !r.question(q)) return "unreadable";
  return name_text(q.name) + " " + type_to_text(q.type);
}

// An upstream that answers its probes and nothing else (a dead zone
// behind it): queries that fail again and again only probe it, and it
// stays up.
TEST(UpstreamHealth, NamesThatTimeOutNeverMarkItDown) {
  Responder upstream([](const Message& q) {
    return question_of(q) == ". NS" ? std::vector<Message>{reply_to(q, 2)} : std::vector<Message>{};
  });
  Zone zone(Policy::sequential, {unasked(1)[0], upstream.upstream()});
  const std::string to = upstream.upstream().text;
  LoopThread thread;
  for (int tries = 0; upstream.queries().size() < 3 && tries < kWaitMs / 10; tries++) {
    thread.call([&] { zone.upstreams->failed(1, thread.loop()); });
    usleep(10000);
  }
  thread.stop();
  ASSERT_EQ(upstream.queries().size(), 3u) << "a probe every 500 ms while queries fail, its SERVFAIL a reply";
  EXPECT_EQ(zone.upstreams->order(), (Order{0, 1}));
  EXPECT_TRUE(zone.warned().empty());
  EXPECT_EQ(zone.metric("resolv_k8s_forward_healthchecks_total{to=\"" + to),
            "resolv_k8s_forward_healthchecks_total{to=\"" + to + "\"} 3");
  EXPECT_EQ(zone.metric("resolv_k8s_forward_healthcheck_failures_total"), "");
  EXPECT_EQ(zone.metric("resolv_k8s_forward_upstream_down_total{to=\"" + to),
            "resolv_k8s_forward_upstream_down_total{to=\"" + to + "\"} 0");
}

// An upstream that answers nothing: down after two probes, said once;
// then it answers the next probe, ". NS", and is back.
TEST(UpstreamHealth, DeadDownAfterTwoProbesThenBackAtItsAnswer) {
  const Upstream dead = closed_upstream();
  Zone zone(Policy::sequential, {unasked(1)[0], dead});
  LoopThread thread;
  thread.call([&] { zone.upstreams->failed(1, thread.loop()); });
  ASSERT_EQ(zone.wait_for(1).size(), 1u);
  EXPECT_EQ(zone.warned(), Strings{"upstream " + dead.text +
                                   " down: 2 health checks in a row unanswered, asked again every 500 ms"});
  EXPECT_EQ(zone.upstreams->order(), (Order{0}));
  EXPECT_TRUE(zone.upstreams->any_healthy());
  EXPECT_EQ(zone.metric("resolv_k8s_forward_upstream_down{to=\"" + dead.text),
            "resolv_k8s_forward_upstream_down{to=\"" + dead.text + "\"} 1");

  // Back: a socket on its port answers the next probe.
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in sa = loopback_addr(dead.port);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0) << strerror(errno);
  ASSERT_TRUE(readable_soon(fd));
  uint8_t buf[512];
  socklen_t len = sizeof sa;
  ssize_t n = recvfrom(fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&sa), &len);
  ASSERT_GT(n, 0);
  const Message probe(buf, buf + n);
  EXPECT_EQ(question_of(probe), ". NS");
  const Message reply = reply_to(probe, 5);  // REFUSED: a reply all the same
  sendto(fd, reply.data(), reply.size(), 0, reinterpret_cast<sockaddr*>(&sa), len);
  EXPECT_EQ(zone.wait_for(2).back(), "upstream " + dead.text + " answers again");
  thread.stop();
  close(fd);
  EXPECT_EQ(zone.upstreams->order(), (Order{0, 1}));
  for (const std::string& line :
       {"resolv_k8s_forward_upstream_down{to=\"" + dead.text + "\"} 0",
        "resolv_k8s_forward_upstream_down_total{to=\"" + dead.text + "\"} 1",
        "resolv_k8s_forward_healthcheck_failures_total{to=\"" + dead.text + "\"} 2",
        "resolv_k8s_forward_healthchecks_total{to=\"" + dead.text + "\"} 3"})
    EXPECT_EQ(zone.metric(line.substr(0, line.find("} ") + 1)), line);
}

TEST(UpstreamHealth, AllDownOneIsTriedAnyway) {
  Zone zone(Policy::sequential, {closed_upstream(), closed_upstream()});
  LoopThread thread;
  thread.call([&] {
    zone.upstreams->failed(0, thread.loop());
    zone.upstreams->failed(1, thread.loop());
  });
  Strings said = zone.wait_for(2);
  thread.stop();
  ASSERT_EQ(said.size(), 2u);
  EXPECT_NE(said[1].find("; every upstream of its zones is down"), std::string::npos) << said[1];
  EXPECT_FALSE(zone.upstreams->any_healthy());
  EXPECT_EQ(zone.metric("resolv_k8s_forward_healthcheck_broken_total"),
            "resolv_k8s_forward_healthcheck_broken_total 1");
  for (int i = 0; i < 20; i++) {
    Order order = zone.upstreams->order();
    ASSERT_EQ(order.size(), 1u);
    EXPECT_LT(order[0], 2u);
  }
  // A reply to a query (the one tried anyway) brings it back at once.
  zone.upstreams->succeeded(1);
  EXPECT_EQ(zone.upstreams->order(), (Order{1}));
  EXPECT_EQ(zone.warned().back(), "upstream " + zone.upstreams->at(1).text + " answers again");
}

// The probe goes over the transport the upstream is used with: UDP (TCP
// only after a truncated reply), or TCP with protocolStrategy TCP.
TEST(UpstreamHealth, ProbedOverItsOwnTransport) {
  for (bool tcp : {false, true}) {
    uint16_t port = free_port();
    int udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in sa = loopback_addr(port);
    ASSERT_EQ(bind(udp, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
    ASSERT_EQ(listen(listener, 4), 0);
    Zone zone(Policy::sequential, {loopback_upstream(port)}, tcp);
    LoopThread thread;
    thread.call([&] { zone.upstreams->failed(0, thread.loop()); });
    pollfd fds[2] = {{udp, POLLIN, 0}, {listener, POLLIN, 0}};
    ASSERT_EQ(poll(fds, 2, kWaitMs), 1) << (tcp ? "TCP" : "UDP");
    EXPECT_EQ(fds[1].revents != 0, tcp) << (tcp ? "TCP" : "UDP");
    thread.stop();
    close(udp);
    close(listener);
  }
}

}  // namespace
}  // namespace rk8s::server::test
