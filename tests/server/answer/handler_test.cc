// SPDX-License-Identifier: Apache-2.0
// Query bytes in, reply bytes out: EDNS, truncation, malformed input, modes.
#include "server/answer/handler.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

using test::N;
using test::query_for;

constexpr uint16_t kCode = autopath::kDefaultCode;

struct Sent {
  std::vector<uint8_t> bytes;
  QueryInfo info;
};

std::unique_ptr<Sent> send(const std::vector<uint8_t>& q, AutopathMode mode = AutopathMode::on,
                           bool tcp = false) {
  static const NameFaults faults;
  auto s = std::make_unique<Sent>();
  s->bytes = test::handle(faults, q, mode, tcp, s->info);
  return s;
}

struct Parsed {
  dns::Header header;
  size_t answers = 0;
  bool has_opt = false;
  dns::Edns edns;
};

Parsed parse(const Sent& s) {
  Parsed p;
  dns::Reader r(s.bytes.data(), s.bytes.size());
  EXPECT_TRUE(r.header(p.header));
  dns::Question q;
  for (int i = 0; i < p.header.qdcount; ++i) EXPECT_TRUE(r.question(q));
  dns::Record rec;
  while (r.record(rec)) {
    if (rec.type == dns::kTypeOPT) p.has_opt = dns::edns_from_record(r, rec, p.edns);
    else if (rec.section == dns::kAnswer) ++p.answers;
  }
  EXPECT_TRUE(r.ok());
  return p;
}

std::vector<uint8_t> autopath_payload(std::initializer_list<const char*> suffixes, uint8_t flags) {
  autopath::QueryOption o;
  o.flags = uint8_t(autopath::kFlagQ | flags);
  for (const char* s : suffixes) o.suffix[o.count++] = N(s);
  std::vector<uint8_t> out(2048);
  out.resize(autopath::encode_query(o, out.data(), out.size()));
  return out;
}

// Reads a reply option as the client does, for a query option of `count`
// suffixes and no flag but Q.
bool read_reply(Bytes value, size_t count, autopath::ReplyOption& out) {
  autopath::QueryOption sent;
  sent.count = count;
  return autopath::decode_reply(value, sent, out);
}

TEST(HandlerEdns, PayloadSizeAndTruncation) {
  // big.example.com: 40 A records, about 700 bytes.
  const struct {
    const char* rule;
    uint16_t udp_size;
    bool tcp;
    bool truncated;
  } cases[] = {
      {"no OPT: 512 bytes", 0, false, true},
      {"EDNS below 512 counts as 512", 100, false, true},
      {"EDNS 1232", 1232, false, false},
      {"TCP ignores the payload size", 0, true, false},
  };
  for (const auto& c : cases) {
    auto s = send(query_for("big.example.com", dns::kTypeA, 0x1234, c.udp_size), AutopathMode::on,
                  c.tcp);
    Parsed p = parse(*s);
    EXPECT_EQ(p.header.tc(), c.truncated) << c.rule;
    EXPECT_EQ(p.answers, c.truncated ? 0u : 40u) << c.rule << ": no part of an RRset";
    EXPECT_EQ(p.has_opt, c.udp_size != 0) << c.rule << ": OPT survives truncation";
    EXPECT_LE(s->bytes.size(), c.tcp ? 65535u : std::max<size_t>(512, c.udp_size)) << c.rule;
  }
}

// limits.maxUDPSize caps what a client's EDNS size asks for.
TEST(HandlerEdns, UdpRepliesCappedAtMaxUdpSize) {
  test::FixtureWorld w;
  HandlerConfig config{&w.router, AutopathMode::on, autopath::kDefaultCode};
  config.max_udp_size = 600;
  for (uint16_t udp_size : {uint16_t(1232), uint16_t(65000)}) {
    std::vector<uint8_t> q = query_for("big.example.com", dns::kTypeA, 0x1234, udp_size), reply;
    handle_query(config, Bytes{q.data(), q.size()}, QueryFrom{}, [&](std::vector<uint8_t>& r, const QueryInfo&) {
      reply = r;
    });
    ASSERT_GE(reply.size(), 12u);
    EXPECT_LE(reply.size(), 600u) << udp_size;
    EXPECT_TRUE(reply[2] & 0x02) << udp_size << ": TC";
  }
}

TEST(HandlerMalformed, FormerrOrSilence) {
  std::vector<uint8_t> good = query_for("web.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232);
  const struct {
    const char* rule;
    std::vector<uint8_t> bytes;
    int rcode;  // -1: no reply
  } cases[] = {
      {"too short for a header", {0x12, 0x34, 0x01}, -1},
      {"a response, not a query", [&] { auto b = good; b[2] |= 0x80; return b; }(), -1},
      {"two questions", [&] { auto b = good; b[5] = 2; return b; }(), dns::kFormErr},
      {"question cut short", std::vector<uint8_t>(good.begin(), good.begin() + 20), dns::kFormErr},
      {"OPT cut short", std::vector<uint8_t>(good.begin(), good.end() - 3), dns::kFormErr},
      {"opcode UPDATE", [&] { auto b = good; b[2] |= 5 << 3; return b; }(), dns::kNotImp},
      {"EDNS version 1: BADVERS", [&] { auto b = good; b[b.size() - 5] = 1; return b; }(), 0},
  };
  for (const auto& c : cases) {
    auto s = send(c.bytes);
    if (c.rcode < 0) {
      EXPECT_EQ(s->bytes.size(), 0u) << c.rule;
      continue;
    }
    ASSERT_GE(s->bytes.size(), 12u) << c.rule;
    Parsed p = parse(*s);
    EXPECT_EQ(p.header.rcode(), c.rcode) << c.rule;
    EXPECT_EQ(p.header.id, 0x1234) << c.rule;
  }
  Parsed badvers = parse(*send(cases[6].bytes));
  EXPECT_EQ(badvers.edns.ext_rcode, 1) << "BADVERS is extended rcode 16";
}

// `good` (a question and an OPT) with its question written twice.
std::vector<uint8_t> two_questions(const std::vector<uint8_t>& good) {
  std::vector<uint8_t> b(good.begin(), good.end() - 11);
  b.insert(b.end(), good.begin() + 12, good.end());
  b[5] = 2;
  return b;
}

// `query` with a TSIG record of `key` appended: hmac-sha256, time 1, fudge
// 300, a 32-byte MAC, original ID 0x1234.
std::vector<uint8_t> signed_with(std::vector<uint8_t> query, const char* key) {
  Name k = N(key), alg = N("hmac-sha256");
  query.insert(query.end(), k.wire, k.wire + k.len);
  std::vector<uint8_t> rdata(alg.wire, alg.wire + alg.len);
  const uint8_t fixed[] = {0, 0, 0, 0, 0, 1, 0x01, 0x2c, 0, 32};
  rdata.insert(rdata.end(), fixed, fixed + sizeof fixed);
  rdata.resize(rdata.size() + 32, 0xab);
  const uint8_t tail[] = {0x12, 0x34, 0, 0, 0, 0};
  rdata.insert(rdata.end(), tail, tail + sizeof tail);
  const uint8_t head[] = {0, 250, 0, 255, 0, 0, 0, 0, uint8_t(rdata.size() >> 8), uint8_t(rdata.size())};
  query.insert(query.end(), head, head + sizeof head);
  query.insert(query.end(), rdata.begin(), rdata.end());
  query[11]++;
  return query;
}

TEST(HandlerConformance, ErrorsKeepTheQuerysOpt) {
  std::vector<uint8_t> good = query_for("web.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232);
  const std::vector<uint8_t> opt(good.end() - 11, good.end());
  const struct {
    const char* rule;
    std::vector<uint8_t> bytes;
    int rcode;
    bool has_opt;
  } cases[] = {
      {"two questions: FORMERR with OPT (RFC 6891 7)", two_questions(good), dns::kFormErr, true},
      {"no question: FORMERR with OPT",
       [&] { auto b = std::vector<uint8_t>(good.begin(), good.begin() + 12); b.insert(b.end(), opt.begin(), opt.end()); b[5] = 0; return b; }(),
       dns::kFormErr, true},
      {"opcode 15 with no question: NOTIMP (RFC 8906 8.1.4)",
       {0x12, 0x34, 0x78, 0x00, 0, 0, 0, 0, 0, 0, 0, 0}, dns::kNotImp, false},
      {"opcode 15 with OPT: NOTIMP with OPT", [&] { auto b = good; b[2] |= 15 << 3; return b; }(), dns::kNotImp,
       true},
      {"a second OPT: FORMERR (RFC 6891 6.1.1)",
       [&] { auto b = good; b.insert(b.end(), opt.begin(), opt.end()); b[11] = 2; return b; }(), dns::kFormErr,
       true},
      {"TSIG before the OPT: FORMERR (RFC 8945 5.2)",
       [&] {
         auto b = signed_with(query_for("web.shop.svc.cluster.local"), "k");
         b.insert(b.end(), opt.begin(), opt.end());
         b[11]++;
         return b;
       }(),
       dns::kFormErr, true},
  };
  for (const auto& c : cases) {
    auto s = send(c.bytes);
    ASSERT_GE(s->bytes.size(), 12u) << c.rule;
    Parsed p = parse(*s);
    EXPECT_EQ(p.header.rcode(), c.rcode) << c.rule;
    EXPECT_EQ(p.header.id, 0x1234) << c.rule;
    EXPECT_EQ(p.has_opt, c.has_opt) << c.rule;
  }
}

// RFC 3225 3: DO copied; RFC 6891 6.1.4: other flags are not.
TEST(HandlerConformance, DoCopiedUnknownFlagsNot) {
  for (uint16_t flags : {uint16_t(0x8000), uint16_t(0x8040), uint16_t(0x0040), uint16_t(0)}) {
    std::vector<uint8_t> q = query_for("web.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232);
    q[q.size() - 4] = uint8_t(flags >> 8);
    q[q.size() - 3] = uint8_t(flags);
    Parsed p = parse(*send(q));
    ASSERT_TRUE(p.has_opt) << flags;
    EXPECT_EQ(p.edns.flags, flags & 0x8000) << flags;
  }
}

// RFC 8945 5.2.1, 5.3.2: NOTAUTH, and a TSIG saying BADKEY with no MAC.
TEST(HandlerConformance, UnknownTsigKeyIsBadkey) {
  auto s = send(signed_with(query_for("web.shop.svc.cluster.local"), "some-key"));
  ASSERT_GE(s->bytes.size(), 12u);
  dns::Reader r(s->bytes.data(), s->bytes.size());
  dns::Header h;
  ASSERT_TRUE(r.header(h));
  EXPECT_EQ(h.rcode(), 9) << "NOTAUTH";
  EXPECT_EQ(h.ancount, 0);
  ASSERT_EQ(h.arcount, 1);
  dns::Record rec;
  ASSERT_TRUE(r.record(rec));
  EXPECT_EQ(rec.type, 250);
  EXPECT_EQ(rec.klass, 255);
  EXPECT_TRUE(dns::name_equal(rec.name, N("some-key")));
  Bytes rdata = r.rdata(rec);
  Name alg = N("hmac-sha256");
  ASSERT_EQ(rdata.size, alg.len + 16u);
  const uint8_t* p = rdata.data + alg.len;
  EXPECT_EQ(load16(p + 4), 1) << "time signed copied";
  EXPECT_EQ(load16(p + 8), 0) << "no MAC";
  EXPECT_EQ(load16(p + 10), 0x1234) << "original ID";
  EXPECT_EQ(load16(p + 12), 17) << "BADKEY";
}

TEST(HandlerConformance, RefusedQuestions) {
  const struct {
    const char* rule;
    std::vector<uint8_t> bytes;
  } cases[] = {
      {"AXFR", query_for("example.com", 252)},
      {"IXFR", query_for("example.com", 251)},
      {"class ANY", [] { auto b = query_for("example.com", dns::kTypeSOA); b[b.size() - 1] = 255; return b; }()},
      {"class CH", [] { auto b = query_for("version.bind", 16); b[b.size() - 1] = 3; return b; }()},
  };
  for (const auto& c : cases) EXPECT_EQ(parse(*send(c.bytes)).header.rcode(), dns::kRefused) << c.rule;
}

// RD=0 is refused where the answer would come from upstreams, as unbound's
// `access-control: allow` refuses it; data of our own answers it.
TEST(HandlerConformance, NoRecursionDesired) {
  test::FixtureWorld w;
  Router recursive;
  recursive.add(Name{}, &w.world, true);
  std::vector<uint8_t> q = query_for("web.shop.svc.cluster.local");
  q[2] &= ~0x01;
  for (const Router* router : {&w.router, &recursive}) {
    std::vector<uint8_t> reply;
    handle_query(HandlerConfig{router, AutopathMode::on, kCode}, Bytes{q.data(), q.size()}, QueryFrom{},
                 [&](std::vector<uint8_t>& r, const QueryInfo&) { reply = r; });
    Parsed p = parse(Sent{reply, {}});
    EXPECT_EQ(p.header.rcode(), router == &recursive ? dns::kRefused : dns::kNoError);
    EXPECT_FALSE(p.header.flags & dns::kFlagRD);
  }
}

TEST(HandlerModes, WhatEachModeDoesWithTheOption) {
  std::vector<uint8_t> payload = autopath_payload({"shop.svc.cluster.local", "svc.cluster.local"}, 0);
  std::vector<dns::EdnsOption> options{{kCode, Bytes{payload.data(), payload.size()}}};
  std::vector<uint8_t> q =
      query_for("web.shop.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232, options);
  const struct {
    AutopathMode mode;
    int rcode;
    size_t answers;
    bool has_opt;
    const char* option;  // what the reply carries under our code
  } cases[] = {
      {AutopathMode::on, dns::kNoError, 2, true, "reply"},
      {AutopathMode::off, dns::kNxDomain, 0, true, "none"},
  };
  for (const auto& c : cases) {
    auto s = send(q, c.mode);
    Parsed p = parse(*s);
    EXPECT_EQ(p.header.rcode(), c.rcode);
    EXPECT_EQ(p.answers, c.answers);
    EXPECT_EQ(p.has_opt, c.has_opt);
    Bytes value;
    bool present = p.has_opt && dns::edns_option(p.edns.options, kCode, value);
    autopath::ReplyOption reply;
    std::string got = !present ? "none"
                      : read_reply(value, 2, reply) ? "reply"
                                                    : "other";
    EXPECT_EQ(got, c.option);
    if (got == "reply") {
      EXPECT_EQ(reply.status, autopath::kMatched);
      EXPECT_EQ(reply.index, 1);
    }
  }
}

TEST(HandlerModes, MalformedOptionIsRejectedAndAnsweredPlainly) {
  std::vector<uint8_t> payload = autopath_payload({"shop.svc.cluster.local"}, 0);
  payload[0] = 2;  // unknown version
  std::vector<dns::EdnsOption> options{{kCode, Bytes{payload.data(), payload.size()}}};
  auto s = send(query_for("web.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232, options));
  Parsed p = parse(*s);
  EXPECT_EQ(p.answers, 1u);
  Bytes value;
  ASSERT_TRUE(dns::edns_option(p.edns.options, kCode, value));
  autopath::ReplyOption reply;
  ASSERT_TRUE(read_reply(value, 1, reply));
  EXPECT_EQ(reply.status, autopath::kRejected);
  EXPECT_EQ(s->info.autopath->status, autopath::kRejected);
}

TEST(HandlerModes, DroppedCandidateEndsTheWalkWithAPlainRejectedAnswer) {
  NameFaults faults;
  ASSERT_TRUE(faults.add_drop("nosuch.svc.cluster.local"));
  std::vector<uint8_t> payload = autopath_payload({"shop.svc.cluster.local", "svc.cluster.local"}, 0);
  std::vector<dns::EdnsOption> options{{kCode, Bytes{payload.data(), payload.size()}}};
  std::vector<uint8_t> q =
      query_for("nosuch.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232, options);
  auto s = std::make_unique<Sent>();
  s->bytes = test::handle(faults, q, AutopathMode::on, false, s->info);
  Parsed p = parse(*s);
  EXPECT_EQ(p.header.rcode(), dns::kNxDomain);  // QNAME's own answer
  Bytes value;
  ASSERT_TRUE(dns::edns_option(p.edns.options, kCode, value));
  autopath::ReplyOption reply;
  ASSERT_TRUE(read_reply(value, 2, reply));
  EXPECT_EQ(reply.status, autopath::kRejected);
}

TEST(HandlerAnswer, AuthorityAndFlags) {
  auto s = send(query_for("nope.shop.svc.cluster.local"));
  Parsed p = parse(*s);
  EXPECT_EQ(p.header.rcode(), dns::kNxDomain);
  EXPECT_TRUE(p.header.flags & dns::kFlagAA);
  EXPECT_TRUE(p.header.flags & dns::kFlagRD);
  EXPECT_EQ(p.header.nscount, 1);
  auto outside = send(query_for("example.org"));
  EXPECT_FALSE(parse(*outside).header.flags & dns::kFlagAA);
  EXPECT_EQ(parse(*outside).header.nscount, 0);
}

}  // namespace
}  // namespace rk8s::server
