// SPDX-License-Identifier: Apache-2.0
// The cache layer: upstream replies read with their names expanded, how
// long they are kept, and the sharded LRU cache that keeps them.
#include "server/cache/cache.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "server/cache/reply.h"
#include "server/cache/ttl.h"
#include "server/util/dns_text.h"
#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

using namespace std::chrono_literals;
using test::N;
using Strings = std::vector<std::string>;

constexpr uint16_t kTypeAFSDB = 18;

// Rdata: `fixed` bytes, the `names` uncompressed, then `tail`.
Rr make_rr(uint16_t type, uint32_t ttl, std::vector<uint8_t> fixed,
           std::initializer_list<const char*> names = {}, std::vector<uint8_t> tail = {}) {
  Rr rr{type, ttl, std::move(fixed)};
  for (const char* name : names) put_name(rr.rdata, N(name));
  rr.rdata.insert(rr.rdata.end(), tail.begin(), tail.end());
  return rr;
}

Rr a_rr(uint32_t ttl, uint8_t last_octet = 1) {
  return make_rr(dns::kTypeA, ttl, {192, 0, 2, last_octet});
}
Rr cname_rr(uint32_t ttl, const char* target) {
  return make_rr(dns::kTypeCNAME, ttl, {}, {target});
}
Rr ns_rr(uint32_t ttl) { return make_rr(dns::kTypeNS, ttl, {}, {"ns1.example.com"}); }
Rr soa_rr(uint32_t ttl, uint32_t minimum) {
  std::vector<uint8_t> numbers;
  for (uint32_t v : {2024010101u, 7200u, 900u, 1209600u, minimum}) put32(numbers, v);
  return make_rr(dns::kTypeSOA, ttl, {}, {"ns1.example.com", "hostmaster.example.com"}, numbers);
}

// A reply to www.example.com/A (the question puts that name at offset 12,
// "example.com" at 16); `add` writes its records.
std::vector<uint8_t> reply(uint16_t flags, const std::function<void(dns::Writer&)>& add) {
  std::vector<uint8_t> msg(4096);
  dns::Writer w(msg.data(), msg.size());
  w.header(0x1234, dns::kFlagQR | dns::kFlagRD | dns::kFlagRA | flags);
  w.question(N("www.example.com"), dns::kTypeA);
  add(w);
  msg.resize(w.size());
  return msg;
}

// A record as the tests write them: its owner by name.
struct Record {
  Name owner;
  Rr rr;
  dns::Section section = dns::kAnswer;
};

CachedAnswer answer_of(uint16_t rcode, bool truncated, const std::vector<Record>& records) {
  CachedAnswer a{rcode, truncated, false, {}, {}};
  for (const Record& r : records) a.add(r.owner, r.rr, r.section);
  return a;
}

void put(dns::Writer& w, const Record& r) {
  ASSERT_TRUE(write_rr(w, r.section, r.owner, r.rr, r.rr.ttl));
}

bool read(const std::vector<uint8_t>& msg, CachedAnswer& out) {
  return read_upstream_reply(Bytes{msg.data(), msg.size()}, out);
}

// "SECTION owner TTL TYPE hex-rdata", to compare records byte for byte.
Strings describe(const CachedAnswer& a) {
  Strings out;
  for (const CachedRecord& r : a.records) {
    std::string line = std::to_string(r.section) + " " + name_text(a.owner(r)) + " " +
                       std::to_string(r.rr.ttl) + " " + std::to_string(r.rr.type) + " ";
    for (uint8_t b : r.rr.rdata) {
      line += "0123456789abcdef"[b >> 4];
      line += "0123456789abcdef"[b & 15];
    }
    out.push_back(line);
  }
  return out;
}

TEST(UpstreamReply, ExpandsNamesCompressedInRdata) {
  const std::vector<Record> want = {
      {N("www.example.com"), cname_rr(300, "web.example.com"), dns::kAnswer},
      {N("web.example.com"), cname_rr(60, "lb.example.com"), dns::kAnswer},
      {N("lb.example.com"), a_rr(60), dns::kAnswer},
      {N("example.com"), ns_rr(3600), dns::kAuthority},
      {N("example.com"), soa_rr(3600, 60), dns::kAuthority},
      {N("example.com"), make_rr(dns::kTypeMX, 300, {0, 10}, {"mail.example.com"}),
       dns::kAdditional},
      {N("_http._tcp.example.com"),
       make_rr(dns::kTypeSRV, 300, {0, 1, 0, 5, 0x1f, 0x90}, {"web.example.com"}),
       dns::kAdditional},
      {N("example.com"), make_rr(kTypeAFSDB, 300, {0, 1}, {"web.example.com"}), dns::kAdditional},
  };
  // write_rr compresses CNAME, NS, SOA and MX; SRV and AFSDB by hand here:
  // "web" then a pointer to "example.com".
  std::vector<uint8_t> srv = {0, 1, 0, 5, 0x1f, 0x90, 3, 'w', 'e', 'b', 0xc0, 16};
  std::vector<uint8_t> afsdb = {0, 1, 3, 'w', 'e', 'b', 0xc0, 16};
  std::vector<uint8_t> msg = reply(0, [&](dns::Writer& w) {
    for (size_t i = 0; i < 6; i++) put(w, want[i]);
    w.record(dns::kAdditional, want[6].owner, dns::kTypeSRV, 300, Bytes{srv.data(), srv.size()});
    w.record(dns::kAdditional, want[7].owner, kTypeAFSDB, 300, Bytes{afsdb.data(), afsdb.size()});
  });

  dns::Reader sent(msg.data(), msg.size());
  dns::Header header;
  ASSERT_TRUE(sent.header(header));
  dns::Record rec;
  size_t compressed = 0;
  for (size_t i = 0; sent.record(rec); i++)
    compressed += rec.rdlength < want[i].rr.rdata.size();
  EXPECT_EQ(compressed, want.size() - 1);  // all but the address

  CachedAnswer got;
  ASSERT_TRUE(read(msg, got));
  EXPECT_EQ(describe(got), describe(answer_of(dns::kNoError, false, want)));
  EXPECT_EQ(got.rcode, dns::kNoError);
  EXPECT_FALSE(got.truncated);
  EXPECT_FALSE(got.authentic_data);
}

TEST(UpstreamReply, HeaderBitsAndExtendedRcode) {
  CachedAnswer got;
  ASSERT_TRUE(read(reply(dns::kFlagTC | dns::kFlagAD | dns::kNxDomain, [](dns::Writer&) {}), got));
  EXPECT_EQ(got.rcode, dns::kNxDomain);
  EXPECT_TRUE(got.truncated);
  EXPECT_TRUE(got.authentic_data);

  ASSERT_TRUE(read(reply(0, [](dns::Writer& w) { w.opt(1232, 1, 0, nullptr, 0); }), got));
  EXPECT_EQ(got.rcode, dns::kBadVers);
  EXPECT_TRUE(got.records.empty());
}

TEST(UpstreamReply, KeepsOnlyClassInWithoutOpt) {
  uint8_t a[4] = {192, 0, 2, 1};
  std::vector<uint8_t> msg = reply(0, [&](dns::Writer& w) {
    w.record(dns::kAnswer, N("www.example.com"), dns::kTypeA, 60, Bytes{a, 4});
    w.record(dns::kAnswer, N("www.example.com"), dns::kTypeA, 60, Bytes{a, 4}, /*CH*/ 3);
    w.record(dns::kAdditional, N("key"), /*TSIG*/ 250, 0, Bytes{a, 4}, /*ANY*/ 255);
    w.opt(/*class IN by chance*/ 1, 0, 0, nullptr, 0);
  });
  CachedAnswer got;
  ASSERT_TRUE(read(msg, got));
  EXPECT_EQ(describe(got), Strings{"0 www.example.com. 60 1 c0000201"});
}

TEST(UpstreamReply, TtlWithTopBitSetReadsAsZero) {
  uint8_t a[4] = {192, 0, 2, 1};
  CachedAnswer got;
  ASSERT_TRUE(read(reply(0, [&](dns::Writer& w) {
                     w.record(dns::kAnswer, N("www.example.com"), dns::kTypeA, 0x80000001,
                              Bytes{a, 4});
                   }),
                   got));
  ASSERT_EQ(got.records.size(), 1u);
  EXPECT_EQ(got.records[0].rr.ttl, 0u);
}

std::vector<uint8_t> two_addresses(uint16_t flags) {
  return reply(flags, [](dns::Writer& w) {
    put(w, {N("www.example.com"), a_rr(60, 1), dns::kAnswer});
    put(w, {N("www.example.com"), a_rr(60, 2), dns::kAnswer});
  });
}

std::vector<uint8_t> one_record(uint16_t type, std::vector<uint8_t> rdata) {
  return reply(0, [&](dns::Writer& w) {
    w.record(dns::kAnswer, N("www.example.com"), type, 60, Bytes{rdata.data(), rdata.size()});
  });
}

TEST(UpstreamReply, MalformedIsRefused) {
  std::vector<uint8_t> soa_short = soa_rr(60, 60).rdata;
  soa_short.resize(soa_short.size() - 4);
  std::vector<uint8_t> cname_junk = cname_rr(60, "web.example.com").rdata;
  cname_junk.push_back(0);
  std::vector<uint8_t> cut = two_addresses(0);
  cut.resize(cut.size() - 2);
  std::vector<uint8_t> header_only = two_addresses(0);
  header_only.resize(11);
  const struct {
    const char* rule;
    std::vector<uint8_t> msg;
  } cases[] = {
      {"header cut short", header_only},
      {"last record cut short", cut},
      {"CNAME with a byte after its name", one_record(dns::kTypeCNAME, cname_junk)},
      {"MX shorter than its preference", one_record(dns::kTypeMX, {0})},
      {"SOA without all its numbers", one_record(dns::kTypeSOA, soa_short)},
      {"pointer beyond the message", one_record(dns::kTypeCNAME, {0xc0, 0xff})},
      // The name goes on into the next record: the OPT's root owner ends it.
      {"name running past its rdata", reply(0,
                                            [](dns::Writer& w) {
                                              uint8_t www[4] = {3, 'w', 'w', 'w'};
                                              w.record(dns::kAnswer, N("a.example.com"),
                                                       dns::kTypeCNAME, 60, Bytes{www, 4});
                                              w.opt(1232, 0, 0, nullptr, 0);
                                            })},
  };
  for (const auto& c : cases) {
    CachedAnswer got;
    EXPECT_FALSE(read(c.msg, got)) << c.rule;
  }
}

TEST(UpstreamReply, TruncatedMayEndAnywhere) {
  std::vector<uint8_t> cut = two_addresses(dns::kFlagTC);
  cut.resize(cut.size() - 2);
  CachedAnswer got;
  ASSERT_TRUE(read(cut, got));
  EXPECT_TRUE(got.truncated);
  EXPECT_EQ(describe(got), Strings{"0 www.example.com. 60 1 c0000201"});
}

Record in(dns::Section section, Rr rr) { return Record{N("www.example.com"), std::move(rr), section}; }

TEST(CacheTtl, Rules) {
  const CacheConfig caps{10000, 900, 30};
  const struct {
    const char* rule;
    uint16_t rcode;
    std::vector<Record> records;
    uint32_t want;
    CacheConfig caps = {10000, 900, 30};
    bool truncated = false;
  } cases[] = {
      {"lowest of answer and authority, additional aside", dns::kNoError,
       {in(dns::kAnswer, cname_rr(300, "web.example.com")), in(dns::kAnswer, a_rr(60)),
        in(dns::kAuthority, ns_rr(120)), in(dns::kAdditional, a_rr(5))},
       60},
      {"authority below the answers", dns::kNoError,
       {in(dns::kAnswer, a_rr(300)), in(dns::kAuthority, ns_rr(20))}, 20},
      {"capped by positive_ttl", dns::kNoError, {in(dns::kAnswer, a_rr(86400))}, 900},
      {"TTL 0: not cached", dns::kNoError, {in(dns::kAnswer, a_rr(0))}, 0},
      {"NXDOMAIN: SOA MINIMUM below its TTL", dns::kNxDomain,
       {in(dns::kAuthority, soa_rr(3600, 20))}, 20},
      {"NXDOMAIN: SOA TTL below its MINIMUM", dns::kNxDomain,
       {in(dns::kAuthority, soa_rr(10, 60))}, 10},
      {"NXDOMAIN capped by negative_ttl", dns::kNxDomain,
       {in(dns::kAuthority, soa_rr(3600, 3600))}, 30},
      {"NXDOMAIN under a larger cap", dns::kNxDomain, {in(dns::kAuthority, soa_rr(3600, 300))},
       300, CacheConfig{10000, 900, 600}},
      {"NXDOMAIN no longer than the CNAME leading there", dns::kNxDomain,
       {in(dns::kAnswer, cname_rr(5, "gone.example.com")), in(dns::kAuthority, soa_rr(60, 60))},
       5},
      {"NXDOMAIN without SOA: not cached", dns::kNxDomain, {}, 0},
      {"NXDOMAIN with the SOA in additional: not cached", dns::kNxDomain,
       {in(dns::kAdditional, soa_rr(60, 60))}, 0},
      {"NODATA: SOA", dns::kNoError, {in(dns::kAuthority, soa_rr(300, 15))}, 15},
      {"NODATA without SOA: not cached", dns::kNoError, {in(dns::kAuthority, ns_rr(300))}, 0},
      {"SERVFAIL: 5 s", dns::kServFail, {}, 5},
      {"SERVFAIL: at most negative_ttl", dns::kServFail, {}, 2, CacheConfig{10000, 900, 2}},
      {"truncated: not cached", dns::kNoError, {in(dns::kAnswer, a_rr(60))}, 0, caps, true},
      {"REFUSED: not cached", dns::kRefused, {}, 0},
      {"FORMERR: not cached", dns::kFormErr, {}, 0},
      {"NOTIMP: not cached", dns::kNotImp, {}, 0},
      {"BADVERS: not cached", dns::kBadVers, {}, 0},
  };
  for (const auto& c : cases) {
    CachedAnswer a = answer_of(c.rcode, c.truncated, c.records);
    EXPECT_EQ(cache_ttl(a, c.caps), c.want) << c.rule;
  }
}

TEST(CacheTtl, ServedTtlCountsDown) {
  const struct {
    const char* rule;
    uint32_t rr_ttl, entry_ttl, age;
    bool stale;
    uint32_t want;
  } cases[] = {
      {"the entry's TTL counted down", 60, 30, 10, false, 20},
      {"a record's own lower TTL counted down", 10, 30, 4, false, 6},
      {"a record past its own TTL: 0", 10, 30, 25, false, 0},
      {"at the entry's expiry: 0", 60, 30, 30, false, 0},
      {"stale: 30 s", 60, 30, 500, true, 30},
  };
  for (const auto& c : cases) {
    Resolution res;
    res.entry_ttl = c.entry_ttl;
    res.age = c.age;
    res.stale = c.stale;
    EXPECT_EQ(res.ttl_of(a_rr(c.rr_ttl)), c.want) << c.rule;
  }
}

const Cache::Clock::time_point t0;
constexpr size_t kBudget = 64 << 20;  // room for every test's entries
constexpr uint32_t kMaxStale = 3600;
const CacheFind kStaleOk{true};
const PrefetchConfig kPrefetch;  // 10%, 1 use in a minute

CacheKey key(const char* name, uint16_t type = dns::kTypeA, bool dnssec_ok = false,
             bool checking_disabled = false) {
  return CacheKey{name_key(N(name)), type, dns::kClassIN, dnssec_ok, checking_disabled};
}

// An answer told apart by the last octet of its one address.
std::shared_ptr<const CachedAnswer> tagged(uint8_t tag) {
  return std::make_shared<const CachedAnswer>(answer_of(dns::kNoError, false, {in(dns::kAnswer, a_rr(60, tag))}));
}

int tag_of(const std::optional<CacheHit>& hit) {
  return hit ? hit->answer->records[0].rr.rdata[3] : -1;
}

TEST(Cache, FreshThenStaleForMaxStale) {
  Cache cache(100, kBudget, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 10, t0);
  std::optional<CacheHit> hit = cache.find(key("www.example.com"), t0 + 9999ms);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->age, 9u);
  EXPECT_EQ(hit->ttl, 10u);
  EXPECT_FALSE(hit->stale);

  EXPECT_FALSE(cache.find(key("www.example.com"), t0 + 10s));
  hit = cache.find(key("www.example.com"), t0 + 10s, kStaleOk);
  ASSERT_TRUE(hit);
  EXPECT_TRUE(hit->stale);
  EXPECT_EQ(hit->age, 10u);
  EXPECT_TRUE(cache.find(key("www.example.com"), t0 + 10s + std::chrono::seconds(kMaxStale) - 1ms, kStaleOk));
  EXPECT_FALSE(cache.find(key("www.example.com"), t0 + 10s + std::chrono::seconds(kMaxStale), kStaleOk));

  CacheCounters c = cache.counters();
  EXPECT_EQ(c.hits, 1u);
  EXPECT_EQ(c.misses, 4u) << "stale is not a hit";
  EXPECT_EQ(c.entries, 0u);  // dropped past the window
}

// A look on a question's behalf (RFC 8020's above it) counts a hit when it
// finds a fresh entry, and no miss when it does not.
TEST(Cache, ALookOnAQuestionsBehalfCountsNoMiss) {
  Cache cache(100, kBudget, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 10, t0);
  const CacheFind behalf{.count_miss = false};
  EXPECT_TRUE(cache.find(key("www.example.com"), t0, behalf));
  EXPECT_FALSE(cache.find(key("nothing.example.com"), t0, behalf));
  EXPECT_FALSE(cache.find(key("www.example.com"), t0 + 10s, behalf)) << "expired";
  CacheCounters c = cache.counters();
  EXPECT_EQ(c.hits, 1u);
  EXPECT_EQ(c.misses, 0u);
}

TEST(Cache, NoMaxStaleKeepsNothingPastItsTtl) {
  Cache cache(100, kBudget, 0);
  cache.insert(key("www.example.com"), tagged(1), 10, t0);
  EXPECT_FALSE(cache.find(key("www.example.com"), t0 + 10s, kStaleOk));
  EXPECT_EQ(cache.counters().entries, 0u);
}

// The upstreams failed for an entry: how long ago, until it is replaced.
TEST(Cache, SinceFailure) {
  Cache cache(100, kBudget, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 10, t0);
  EXPECT_EQ(cache.find(key("www.example.com"), t0 + 1s)->since_failure, UINT32_MAX);
  cache.failed(key("www.example.com"), t0 + 12s);
  EXPECT_EQ(cache.find(key("www.example.com"), t0 + 20s, kStaleOk)->since_failure, 8u);
  cache.insert(key("www.example.com"), tagged(2), 10, t0 + 21s);
  EXPECT_EQ(cache.find(key("www.example.com"), t0 + 22s)->since_failure, UINT32_MAX);
}

// Prefetch: a fresh hit within the last `percentage` of the TTL, a second
// at least, asks for a refresh once the entry had min_hits uses within the
// period; the others are counted as served meanwhile; a new insert starts
// over; stale hits and no rule never ask.
TEST(Cache, PrefetchAsksOnceNearTheEnd) {
  Cache cache(100, kBudget, kMaxStale);
  auto at = [&](const char* name, auto when, const PrefetchConfig* prefetch = &kPrefetch, uint32_t uses = 1) {
    std::optional<CacheHit> hit = cache.find(key(name), t0 + when, CacheFind{true, prefetch, uses});
    return hit ? (hit->stale ? "stale" : hit->refresh ? "refresh" : "hit") : "miss";
  };
  cache.insert(key("ten.example"), tagged(1), 10, t0);
  EXPECT_STREQ(at("ten.example", 8999ms), "hit");
  EXPECT_STREQ(at("ten.example", 9000ms, nullptr), "hit");
  EXPECT_STREQ(at("ten.example", 9000ms), "refresh");
  EXPECT_STREQ(at("ten.example", 9500ms), "hit");
  EXPECT_STREQ(at("ten.example", 10s), "stale");
  CacheCounters c = cache.counters();
  EXPECT_EQ(c.prefetches, 1u);
  EXPECT_EQ(c.served_refreshing, 1u);
  cache.insert(key("ten.example"), tagged(2), 10, t0 + 9600ms);  // the refresh landed
  EXPECT_STREQ(at("ten.example", 9600ms + 8999ms), "hit");
  EXPECT_STREQ(at("ten.example", 9600ms + 9s), "refresh");
  EXPECT_EQ(cache.counters().prefetches, 2u);

  // Kubernetes' 5 s: a tenth is 0.5 s, the window a second, so a name
  // asked twice a second is always caught.
  cache.insert(key("five.example"), tagged(3), 5, t0);
  EXPECT_STREQ(at("five.example", 3999ms), "hit");
  EXPECT_STREQ(at("five.example", 4000ms), "refresh");
  cache.insert(key("one.example"), tagged(4), 1, t0);
  EXPECT_STREQ(at("one.example", 0ms), "refresh") << "a TTL of 1 s: at once";

  const PrefetchConfig three{true, 50, 3, 60};  // half the TTL, 3 uses a minute
  cache.insert(key("hits.example"), tagged(5), 10, t0);
  EXPECT_STREQ(at("hits.example", 1s, &three), "hit");
  EXPECT_STREQ(at("hits.example", 5s, &three), "hit") << "due, 2 uses";
  EXPECT_STREQ(at("hits.example", 6s, &three), "refresh") << "the third use";
  cache.insert(key("repeats.example"), tagged(6), 10, t0);
  EXPECT_STREQ(at("repeats.example", 5s, &three, 3), "refresh") << "the packet cache's repeats count";
  const PrefetchConfig quick{true, 50, 2, 1};  // 2 uses within a second
  cache.insert(key("period.example"), tagged(7), 10, t0);
  EXPECT_STREQ(at("period.example", 1s, &quick), "hit");
  EXPECT_STREQ(at("period.example", 5s, &quick), "hit") << "the first use's period is over";
  EXPECT_STREQ(at("period.example", 5500ms, &quick), "refresh");
}

// refresh_in_ms: until the refresh is due, rounded up, so that a question
// the packet cache lets through then finds it due.
TEST(Cache, RefreshInRoundsUp) {
  const PrefetchConfig rule;
  Cache cache(100, kBudget, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 10, t0);
  auto in = [&](auto when) {
    return cache.find(key("www.example.com"), t0 + when, CacheFind{false, &rule})->refresh_in_ms;
  };
  EXPECT_EQ(in(0ms), 9000u);
  EXPECT_EQ(in(6500us), 8994u);
  EXPECT_EQ(in(8999ms), 1u);
  EXPECT_EQ(in(9000ms), 0u);
  EXPECT_EQ(cache.find(key("www.example.com"), t0)->refresh_in_ms, UINT32_MAX);
  EXPECT_EQ(refresh_point_ms(10, 10), 9000u);
  EXPECT_EQ(refresh_point_ms(5, 10), 4000u);
  EXPECT_EQ(refresh_point_ms(4, 10), 3000u);
  EXPECT_EQ(refresh_point_ms(1, 10), 0u);
  EXPECT_EQ(refresh_point_ms(300, 20), 240000u);
}

TEST(Cache, InsertReplacesAndRestartsTheClock) {
  Cache cache(100, kBudget, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 10, t0);
  cache.insert(key("www.example.com"), tagged(2), 30, t0 + 20s);
  std::optional<CacheHit> hit = cache.find(key("www.example.com"), t0 + 25s);
  EXPECT_EQ(tag_of(hit), 2);
  EXPECT_EQ(hit->age, 5u);
  cache.insert(key("www.example.com"), tagged(3), 0, t0 + 25s);  // not cacheable: kept as is
  EXPECT_EQ(tag_of(cache.find(key("www.example.com"), t0 + 25s)), 2);
  EXPECT_EQ(cache.counters().entries, 1u);
}

// CoreDNS's cache_entries{type}: an NXDOMAIN or an empty answer section is
// a denial, whether added, replaced or evicted.
TEST(Cache, CountsDenialsAmongEntries) {
  Cache cache(100, kBudget, kMaxStale);
  auto nxdomain = std::make_shared<const CachedAnswer>(answer_of(dns::kNxDomain, false, {}));
  auto nodata = std::make_shared<const CachedAnswer>(answer_of(dns::kNoError, false, {}));
  cache.insert(key("a.example.com"), tagged(1), 10, t0);
  cache.insert(key("b.example.com"), nxdomain, 10, t0);
  cache.insert(key("c.example.com"), nodata, 10, t0);
  EXPECT_EQ(cache.counters().entries, 3u);
  EXPECT_EQ(cache.counters().denials, 2u);
  cache.insert(key("b.example.com"), tagged(2), 10, t0);  // a denial replaced by an answer
  cache.insert(key("a.example.com"), nxdomain, 10, t0);   // and the other way
  EXPECT_EQ(cache.counters().denials, 2u);
  cache.insert(key("c.example.com"), tagged(3), 10, t0);
  EXPECT_EQ(cache.counters().denials, 1u);
  EXPECT_FALSE(cache.find(key("a.example.com"), t0 + 10s + std::chrono::seconds(kMaxStale), kStaleOk));
  EXPECT_EQ(cache.counters().entries, 2u);
  EXPECT_EQ(cache.counters().denials, 0u) << "dropped past its window";
}

TEST(Cache, KeysIgnoreCaseAndSeparateTypeClassDoCd) {
  Cache cache(100, kBudget, kMaxStale);
  cache.insert(key("WWW.Example.COM"), tagged(1), 60, t0);
  cache.insert(key("www.example.com", dns::kTypeA, true), tagged(2), 60, t0);
  cache.insert(key("www.example.com", dns::kTypeA, false, true), tagged(3), 60, t0);
  EXPECT_EQ(tag_of(cache.find(key("www.EXAMPLE.com"), t0)), 1);
  EXPECT_EQ(tag_of(cache.find(key("www.example.com", dns::kTypeA, true), t0)), 2);
  EXPECT_EQ(tag_of(cache.find(key("www.example.com", dns::kTypeA, false, true), t0)), 3);
  EXPECT_FALSE(cache.find(key("www.example.com", dns::kTypeA, true, true), t0));
  EXPECT_FALSE(cache.find(key("www.example.com", dns::kTypeAAAA), t0));
  CacheKey chaos = key("www.example.com");
  chaos.klass = 3;
  EXPECT_FALSE(cache.find(chaos, t0));
}

TEST(Cache, EvictsLeastRecentlyUsed) {
  Cache cache(3, kBudget, kMaxStale);  // one shard: exact LRU order
  cache.insert(key("a.example"), tagged(1), 60, t0);
  cache.insert(key("b.example"), tagged(2), 60, t0);
  cache.insert(key("c.example"), tagged(3), 60, t0);
  ASSERT_TRUE(cache.find(key("a.example"), t0));  // b is now the oldest
  cache.insert(key("d.example"), tagged(4), 60, t0);
  cache.insert(key("c.example"), tagged(5), 60, t0);  // a replacement evicts nothing
  cache.insert(key("e.example"), tagged(6), 60, t0);  // a is now the oldest
  Strings kept;
  for (const char* name : {"a.example", "b.example", "c.example", "d.example", "e.example"})
    if (cache.find(key(name), t0, kStaleOk)) kept.push_back(name);
  EXPECT_EQ(kept, (Strings{"c.example", "d.example", "e.example"}));
  CacheCounters c = cache.counters();
  EXPECT_EQ(c.evictions, 2u);
  EXPECT_EQ(c.entries, 3u);
}

TEST(Cache, StaleEntriesCountTowardsCapacity) {
  Cache cache(2, kBudget, kMaxStale);
  cache.insert(key("a.example"), tagged(1), 1, t0);
  cache.insert(key("b.example"), tagged(2), 60, t0 + 5s);
  cache.insert(key("c.example"), tagged(3), 60, t0 + 5s);
  EXPECT_FALSE(cache.find(key("a.example"), t0 + 5s, kStaleOk));
  EXPECT_EQ(cache.counters().entries, 2u);
}

TEST(Cache, CapacityHoldsAcrossShards) {
  constexpr size_t kCapacity = 1000, kInserts = 10000;
  Cache cache(kCapacity, kBudget, kMaxStale);
  for (size_t i = 0; i < kInserts; i++)
    cache.insert(key(("n" + std::to_string(i) + ".example").c_str()), tagged(1), 60, t0);
  size_t found = 0;
  for (size_t i = 0; i < kInserts; i++)
    found += bool(cache.find(key(("n" + std::to_string(i) + ".example").c_str()), t0));
  CacheCounters c = cache.counters();
  EXPECT_LE(c.entries, kCapacity);
  EXPECT_EQ(found, c.entries);
  EXPECT_EQ(c.entries + c.evictions, kInserts);
  EXPECT_GT(c.entries, kCapacity * 9 / 10);  // no shard starved
}

TEST(Cache, NoCapacityCachesNothing) {
  Cache cache(0, kBudget, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 60, t0);
  EXPECT_FALSE(cache.find(key("www.example.com"), t0, kStaleOk));
  EXPECT_EQ(cache.counters().entries, 0u);
}

// A large answer (64 KB on the wire: 4000 addresses of one name) is charged
// what it holds, the owner once: under 80 bytes an address.
TEST(CachedAnswerBytes, OneOwnerOnceAndEachRecordItsSize) {
  CachedAnswer big;
  for (int i = 0; i < 4000; i++) big.add(N("big.example.com"), a_rr(60, uint8_t(i)), dns::kAnswer);
  EXPECT_EQ(big.names.size(), N("big.example.com").len);
  EXPECT_LT(big.bytes(), 4000u * 80);
  EXPECT_GT(big.bytes(), 4000u * (sizeof(CachedRecord) + 4));
  CachedAnswer two;
  two.add(N("a.example"), a_rr(60), dns::kAnswer);
  two.add(N("b.example"), a_rr(60), dns::kAnswer);
  two.add(N("b.example"), a_rr(60), dns::kAnswer);
  EXPECT_EQ(name_text(two.owner(two.records[0])), "a.example.");
  EXPECT_EQ(name_text(two.owner(two.records[2])), "b.example.");
  EXPECT_EQ(two.names.size(), N("a.example").len + N("b.example").len);
}

// The budget in bytes holds whatever the entries' count: the least recently
// used go; what is charged comes back as entries leave.
TEST(Cache, BytesBudgetEvictsLeastRecentlyUsed) {
  auto big = [](uint8_t tag) {
    CachedAnswer a;
    for (int i = 0; i < 100; i++) a.add(N("www.example.com"), a_rr(60, tag), dns::kAnswer);
    return std::make_shared<const CachedAnswer>(std::move(a));
  };
  size_t one = big(0)->bytes();
  Cache cache(100, one * 5 + one / 2, kMaxStale);  // one shard, five answers and their keys
  for (uint8_t i = 0; i < 10; i++)
    cache.insert(key(("n" + std::to_string(i) + ".example").c_str()), big(i), 60, t0);
  CacheCounters c = cache.counters();
  EXPECT_EQ(c.entries, 5u);
  EXPECT_EQ(c.evictions, 5u);
  EXPECT_LE(c.bytes, one * 5 + one / 2);
  EXPECT_GT(c.bytes, one * 5);
  EXPECT_TRUE(cache.find(key("n5.example"), t0));
  EXPECT_FALSE(cache.find(key("n4.example"), t0));
}

TEST(Cache, AnswerOverTheBudgetIsNotKeptAndDropsWhatItReplaces) {
  Cache cache(100, 4096, kMaxStale);
  cache.insert(key("www.example.com"), tagged(1), 60, t0);
  ASSERT_TRUE(cache.find(key("www.example.com"), t0));
  CachedAnswer a;
  for (int i = 0; i < 200; i++) a.add(N("www.example.com"), a_rr(60), dns::kAnswer);
  cache.insert(key("www.example.com"), std::make_shared<const CachedAnswer>(std::move(a)), 60, t0);
  EXPECT_FALSE(cache.find(key("www.example.com"), t0, kStaleOk));
  CacheCounters c = cache.counters();
  EXPECT_EQ(c.too_big, 1u);
  EXPECT_EQ(c.entries, 0u);
  EXPECT_EQ(c.bytes, 0u);
}

// Every hit must carry the answer inserted under its own key; TSan checks
// the rest.
TEST(Cache, ConcurrentInsertsAndFinds) {
  constexpr int kThreads = 8, kOps = 20000, kNames = 600;
  constexpr size_t kCapacity = 256;
  Cache cache(kCapacity, kBudget, kMaxStale);
  std::vector<CacheKey> keys;
  for (int i = 0; i < kNames; i++)
    keys.push_back(key(("n" + std::to_string(i) + ".example").c_str()));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kOps; i++) {
        int n = (i * 7919 + t * 104729) % kNames;
        Cache::Clock::time_point now = t0 + std::chrono::seconds(i / 1000);
        if (i % 3 == 0) {
          cache.insert(keys[n], tagged(uint8_t(n)), 1 + i % 5, now);
        } else if (std::optional<CacheHit> hit = cache.find(keys[n], now, CacheFind{i % 2 == 1})) {
          if (tag_of(hit) != uint8_t(n)) wrong++;
        }
        if (i % 1000 == 0 && cache.counters().entries > kCapacity) wrong++;
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  CacheCounters c = cache.counters();
  EXPECT_LE(c.entries, kCapacity);
  int finds = kThreads * (kOps - (kOps + 2) / 3);
  EXPECT_EQ(c.hits + c.misses, uint64_t(finds));
  EXPECT_GT(c.hits, 0u);
  EXPECT_GT(c.evictions, 0u);
}

}  // namespace
}  // namespace rk8s::server
