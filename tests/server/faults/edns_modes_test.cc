// SPDX-License-Identifier: Apache-2.0
// --autopath formerr|echo (server/faults/edns_modes.h): a broken old
// server's FORMERR and a middlebox's echo, else the handler's answer with
// autopath off.
#include "server/faults/edns_modes.h"

#include <gtest/gtest.h>

#include <cstring>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

constexpr uint16_t kCode = autopath::kDefaultCode;

struct Sent {
  std::vector<uint8_t> bytes;
  QueryInfo info;
  dns::Header header;
  size_t answers = 0;
  bool has_opt = false;
  dns::Edns edns;
};

Sent send(EdnsMode mode, const std::vector<uint8_t>& q) {
  FixtureWorld w;
  Handle handle = edns_mode_handle(mode, HandlerConfig{&w.router, AutopathMode::on, kCode});
  Sent s;
  handle(Bytes{q.data(), q.size()}, QueryFrom{}, [&](std::vector<uint8_t>& reply, const QueryInfo& info) {
    s.bytes = reply;
    s.info = info;
  });
  dns::Reader r(s.bytes.data(), s.bytes.size());
  EXPECT_TRUE(r.header(s.header));
  dns::Question question;
  for (int i = 0; i < s.header.qdcount; ++i) EXPECT_TRUE(r.question(question));
  dns::Record rec;
  while (r.record(rec)) {
    if (rec.type == dns::kTypeOPT) s.has_opt = dns::edns_from_record(r, rec, s.edns);
    else if (rec.section == dns::kAnswer) ++s.answers;
  }
  EXPECT_TRUE(r.ok());
  return s;
}

std::vector<uint8_t> autopath_payload() {
  autopath::QueryOption o;
  o.flags = autopath::kFlagQ;
  o.suffix[o.count++] = N("shop.svc.cluster.local");
  o.suffix[o.count++] = N("svc.cluster.local");
  std::vector<uint8_t> out(2048);
  out.resize(autopath::encode_query(o, out.data(), out.size()));
  return out;
}

TEST(EdnsModes, TheOptionAsEachModeAnswersIt) {
  std::vector<uint8_t> payload = autopath_payload();
  std::vector<dns::EdnsOption> options{{kCode, Bytes{payload.data(), payload.size()}}};
  std::vector<uint8_t> q = query_for("web.shop.shop.svc.cluster.local", dns::kTypeA, 0x1234, 1232, options);

  Sent formerr = send(EdnsMode::formerr, q);
  EXPECT_EQ(formerr.header.rcode(), dns::kFormErr);
  EXPECT_EQ(formerr.header.id, 0x1234);
  EXPECT_EQ(formerr.header.qdcount, 1);
  EXPECT_FALSE(formerr.has_opt);
  EXPECT_EQ(formerr.info.rcode, dns::kFormErr);
  EXPECT_TRUE(formerr.info.has_option);
  EXPECT_EQ(formerr.info.zone, ".");

  Sent echo = send(EdnsMode::echo, q);
  EXPECT_EQ(echo.header.rcode(), dns::kNxDomain) << "not walked: web.shop.shop... itself";
  EXPECT_EQ(echo.answers, 0u);
  ASSERT_TRUE(echo.has_opt);
  Bytes value;
  ASSERT_TRUE(dns::edns_option(echo.edns.options, kCode, value));
  EXPECT_EQ(value.size, payload.size());
  EXPECT_EQ(memcmp(value.data, payload.data(), payload.size()), 0) << "verbatim, Q still set";
  EXPECT_FALSE(echo.info.autopath);
}

TEST(EdnsModes, WithoutOptionsTheHandlersAnswer) {
  for (EdnsMode mode : {EdnsMode::formerr, EdnsMode::echo}) {
    Sent s = send(mode, query_for("web.shop.svc.cluster.local", dns::kTypeA, 7, 1232));
    EXPECT_EQ(s.header.rcode(), dns::kNoError);
    EXPECT_EQ(s.answers, 1u);
    EXPECT_TRUE(s.has_opt);
    EXPECT_EQ(s.edns.options.size, 0u);
  }
}

// A query of EDNS version 1 is BADVERS first, as the handler orders its
// checks; an echo that would not fit the client's size is left out.
TEST(EdnsModes, TheHandlersChecksFirstAndTheClientsSize) {
  std::vector<uint8_t> big(600, 'x');
  std::vector<dns::EdnsOption> options{{65000, Bytes{big.data(), big.size()}}};
  std::vector<uint8_t> q = query_for("web.shop.svc.cluster.local", dns::kTypeA, 7, 512, options);
  Sent echo = send(EdnsMode::echo, q);
  EXPECT_EQ(echo.header.rcode(), dns::kNoError);
  EXPECT_LE(echo.bytes.size(), 512u);
  EXPECT_EQ(echo.edns.options.size, 0u);

  q = query_for("web.shop.svc.cluster.local", dns::kTypeA, 7, 1232, options);
  size_t opt = q.size() - 11 - 4 - big.size();  // the OPT record: root, type, class, then the TTL's
  ASSERT_EQ(q[opt], 0);
  q[opt + 6] = 1;  // version
  Sent formerr = send(EdnsMode::formerr, q);
  EXPECT_EQ(formerr.header.rcode() | (formerr.edns.ext_rcode << 4), dns::kBadVers);
}

}  // namespace
}  // namespace rk8s::server::test
