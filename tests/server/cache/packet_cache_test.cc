// SPDX-License-Identifier: Apache-2.0
// The packet cache (server/cache/packet_cache.h): whole replies from the
// handler, served again with the asker's ID and TTLs moved on, no longer
// than their TTLs, what made them and the runtime that made them allow.
#include <gtest/gtest.h>

#include "server/cache/packet_cache.h"
#include "server/util/dns_text.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

using Clock = PacketCache::Clock;
constexpr size_t kBudget = 1 << 20;
using std::chrono::seconds;

std::vector<uint8_t> query(uint16_t id, const char* name, uint16_t udp_size = 0) {
  return query_for(name, dns::kTypeA, id, udp_size);
}

Bytes bytes(const std::vector<uint8_t>& v) { return Bytes{v.data(), v.size()}; }

// An upstream through the cache: an A record of `ttl`, kept `kept` seconds
// more (its prefetch due in `refresh_in_ms`), or SERVFAIL.
class Upstream : public Source {
 public:
  uint32_t ttl = 60, kept = 40, refresh_in_ms = UINT32_MAX;
  uint8_t rcode = dns::kNoError;

  void resolve(const Ask& ask, Resolved done) override {
    Resolution res;
    res.recursive = true;
    res.rcode = rcode;
    res.reuse.kept = rcode == dns::kNoError ? kept : 0;
    res.reuse.refresh_in_ms = refresh_in_ms;
    if (rcode == dns::kNoError) {
      res.records.push_back(RrRef{ask.name, &a_});
      res.has_data = true;
    }
    a_.ttl = ttl;
    done(&res);
  }

 private:
  Rr a_{dns::kTypeA, 0, {192, 0, 2, 7}};
};

struct Answered {
  std::vector<uint8_t> reply;
  QueryInfo info;
};

Answered answer(const Router& router, const std::vector<uint8_t>& q) {
  Answered out;
  handle_query(HandlerConfig{&router, AutopathMode::on, autopath::kDefaultCode}, bytes(q), QueryFrom{},
               [&](std::vector<uint8_t>& reply, const QueryInfo& info) {
                 out.reply = reply;
                 out.info = info;
               });
  return out;
}

// Every record's TTL, in message order, but the OPT record's.
std::vector<uint32_t> ttls(const std::vector<uint8_t>& msg) {
  dns::Reader reader(msg.data(), msg.size());
  dns::Header h;
  reader.header(h);
  std::vector<uint32_t> out;
  dns::Record rec;
  while (reader.record(rec))
    if (rec.type != dns::kTypeOPT) out.push_back(rec.ttl);
  return out;
}

struct Upstreams : ::testing::Test {
  Upstream upstream;
  Router router;
  PacketCache cache{16, kBudget};
  Clock::time_point t0 = Clock::now();
  Upstreams() { router.set_fallback(&upstream); }
};

TEST_F(Upstreams, AHitIsTheReplyWithTheAskersIdAndItsTtlsMovedOn) {
  Answered first = answer(router, query(0x1111, "www.example.com", 1232));
  EXPECT_EQ(first.info.reusable, 40u);
  EXPECT_TRUE(first.info.ttls_count_down);
  cache.insert(bytes(query(0x1111, "www.example.com", 1232)), 1, first.reply, first.info, t0);

  std::vector<uint8_t> again;
  QueryInfo info;
  ASSERT_TRUE(cache.find(bytes(query(0x2222, "www.example.com", 1232)), 1, t0 + seconds(10), again, info));
  EXPECT_EQ(load16(again.data()), 0x2222);
  EXPECT_EQ(ttls(again), std::vector<uint32_t>{50});
  EXPECT_EQ(info.qtype, dns::kTypeA);
  EXPECT_EQ(name_text(info.qname), name_text(N("www.example.com")));
  // All but the ID and the TTL, the OPT record's flags included, as sent.
  again[0] = 0x11, again[1] = 0x11;
  size_t ttl_at = again.size() - 11 - 4 - 6;
  for (size_t i = 0; i < 4; i++) again[ttl_at + i] = first.reply[ttl_at + i];
  EXPECT_EQ(again, first.reply);
  EXPECT_EQ(cache.hits(), 1u);
}

TEST_F(Upstreams, KeptNoLongerThanTheCacheKeepsWhatItWasMadeOf) {
  Answered first = answer(router, query(1, "www.example.com"));
  cache.insert(bytes(query(1, "www.example.com")), 1, first.reply, first.info, t0);
  std::vector<uint8_t> again;
  QueryInfo info;
  EXPECT_TRUE(cache.find(bytes(query(2, "www.example.com")), 1, t0 + seconds(39), again, info));
  EXPECT_FALSE(cache.find(bytes(query(2, "www.example.com")), 1, t0 + seconds(40), again, info));
}

// Prefetch: at refresh_in_ms one question goes through (to start the
// refresh), the others are answered as before; the reply that came through
// (refresh_in_ms 0) is served until it runs out.
TEST_F(Upstreams, OneQuestionThroughWhenItsRefreshIsDue) {
  upstream.refresh_in_ms = 30000;
  Answered first = answer(router, query(1, "www.example.com"));
  EXPECT_EQ(first.info.refresh_in_ms, 30000u);
  cache.insert(bytes(query(1, "www.example.com")), 1, first.reply, first.info, t0);
  std::vector<uint8_t> again;
  QueryInfo info;
  auto found = [&](int s) { return cache.find(bytes(query(2, "www.example.com")), 1, t0 + seconds(s), again, info); };
  EXPECT_TRUE(found(29));
  EXPECT_FALSE(found(30));
  EXPECT_TRUE(found(31));
  EXPECT_TRUE(found(39));
  EXPECT_FALSE(found(40));

  upstream.kept = 10, upstream.refresh_in_ms = 0;
  Answered through = answer(router, query(1, "www.example.com"));
  cache.insert(bytes(query(1, "www.example.com")), 1, through.reply, through.info, t0 + seconds(30));
  EXPECT_TRUE(found(30));
  EXPECT_TRUE(found(39));
  EXPECT_FALSE(found(40));
}

TEST_F(Upstreams, KeptNoLongerThanItsSmallestTtl) {
  upstream.ttl = 5;
  Answered first = answer(router, query(1, "www.example.com"));
  cache.insert(bytes(query(1, "www.example.com")), 1, first.reply, first.info, t0);
  std::vector<uint8_t> again;
  QueryInfo info;
  ASSERT_TRUE(cache.find(bytes(query(2, "www.example.com")), 1, t0 + seconds(4), again, info));
  EXPECT_EQ(ttls(again), std::vector<uint32_t>{1});
  EXPECT_FALSE(cache.find(bytes(query(2, "www.example.com")), 1, t0 + seconds(5), again, info));
}

TEST_F(Upstreams, NotKeptWhenNothingKeptItsParts) {
  upstream.kept = 0;
  Answered first = answer(router, query(1, "www.example.com"));
  EXPECT_EQ(first.info.reusable, 0u);
  upstream.rcode = dns::kServFail;
  Answered failed = answer(router, query(1, "www.example.com"));
  EXPECT_EQ(failed.info.reusable, 0u);
  cache.insert(bytes(query(1, "www.example.com")), 1, first.reply, first.info, t0);
  std::vector<uint8_t> again;
  QueryInfo info;
  EXPECT_FALSE(cache.find(bytes(query(2, "www.example.com")), 1, t0, again, info));
}

TEST_F(Upstreams, OnlyTheSameQueryOfTheSameRuntime) {
  Answered first = answer(router, query(1, "www.example.com"));
  cache.insert(bytes(query(1, "www.example.com")), 1, first.reply, first.info, t0);
  std::vector<uint8_t> again;
  QueryInfo info;
  EXPECT_FALSE(cache.find(bytes(query(1, "www.example.com")), 2, t0, again, info));
  EXPECT_FALSE(cache.find(bytes(query(1, "WWW.example.com")), 1, t0, again, info));
  EXPECT_FALSE(cache.find(bytes(query(1, "www.example.com", 1232)), 1, t0, again, info));
  std::vector<uint8_t> no_rd = query(1, "www.example.com");
  no_rd[2] &= ~0x01;
  EXPECT_FALSE(cache.find(bytes(no_rd), 1, t0, again, info));
  EXPECT_TRUE(cache.find(bytes(query(1, "www.example.com")), 1, t0, again, info));
}

TEST(PacketCache, DataKeepsItsTtlsUntilTheyRunOut) {
  FixtureWorld w;
  PacketCache cache(16, kBudget);
  Clock::time_point t0 = Clock::now();
  std::vector<uint8_t> q = query(7, "web.default.svc.cluster.local");
  Answered first = answer(w.router, q);
  ASSERT_FALSE(first.reply.empty());
  EXPECT_EQ(first.info.reusable, UINT32_MAX);
  EXPECT_FALSE(first.info.ttls_count_down);
  cache.insert(bytes(q), 1, first.reply, first.info, t0);
  uint32_t ttl = ttls(first.reply).at(0);
  std::vector<uint8_t> again;
  QueryInfo info;
  ASSERT_TRUE(cache.find(bytes(q), 1, t0 + seconds(ttl - 1), again, info));
  EXPECT_EQ(again, first.reply);
  EXPECT_FALSE(cache.find(bytes(q), 1, t0 + seconds(ttl), again, info));
}

TEST(PacketCache, NoSlotsKeepNothing) {
  FixtureWorld w;
  PacketCache cache(0, kBudget);
  std::vector<uint8_t> q = query(7, "web.default.svc.cluster.local");
  Answered first = answer(w.router, q);
  cache.insert(bytes(q), 1, first.reply, first.info, Clock::now());
  std::vector<uint8_t> again;
  QueryInfo info;
  EXPECT_FALSE(cache.find(bytes(q), 1, Clock::now(), again, info));
}

}  // namespace
}  // namespace rk8s::server::test

namespace rk8s::server::test {
namespace {

// The budget in bytes: a reply that would exceed it is not kept, and the
// one in its slot goes; what is charged comes back.
TEST(PacketCache, BytesBudget) {
  FixtureWorld w;
  std::vector<uint8_t> q = query(7, "web.default.svc.cluster.local");
  Answered first = answer(w.router, q);
  PacketCache roomy(16, kBudget);
  roomy.insert(bytes(q), 1, first.reply, first.info, Clock::now());
  size_t one = roomy.bytes();
  EXPECT_GT(one, first.reply.size() + q.size());
  EXPECT_LT(one, 2 * (first.reply.size() + q.size()) + 1024);

  PacketCache tight(16, one - 1);
  tight.insert(bytes(q), 1, first.reply, first.info, Clock::now());
  std::vector<uint8_t> again;
  QueryInfo info;
  EXPECT_FALSE(tight.find(bytes(q), 1, Clock::now(), again, info));
  EXPECT_EQ(tight.bytes(), 0u);
  PacketCache none_at_all(16, 0);
  none_at_all.insert(bytes(q), 1, first.reply, first.info, Clock::now());
  EXPECT_FALSE(none_at_all.find(bytes(q), 1, Clock::now(), again, info));
}

}  // namespace
}  // namespace rk8s::server::test
