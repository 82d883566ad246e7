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
  static const Faults faults;
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
    EXPECT_EQ(p.answers == 40, !c.truncated) << c.rule;
    EXPECT_EQ(p.has_opt, c.udp_size != 0) << c.rule << ": OPT survives truncation";
    EXPECT_LE(s->bytes.size(), c.tcp ? 65535u : std::max<size_t>(512, c.udp_size)) << c.rule;
  }
}

// limits.maxUDPSize caps what a client's EDNS size asks for.
TEST(HandlerEdns, UdpRepliesCappedAtMaxUdpSize) {
  Faults none;
  test::FixtureWorld w(none);
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
      {AutopathMode::formerr, dns::kFormErr, 0, false, "none"},
      {AutopathMode::echo, dns::kNxDomain, 0, true, "echo"},
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
                      : value.size == payload.size() && memcmp(value.data, payload.data(), value.size) == 0 ? "echo"
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
  Faults faults;
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
