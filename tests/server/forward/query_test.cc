// SPDX-License-Identifier: Apache-2.0
// The queries sent upstream (server/forward/query.h): a fresh ID, RD, EDNS0
// with our UDP size and the client's DO and CD; and the health probe.
#include "server/forward/query.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

// A query as an upstream reads it: "FLAGS NAME TYPE CLASS", then the OPT
// record's "udp=SIZE do=0|1 version=V options=N", and the counts.
struct Sent {
  uint16_t id = 0;
  std::string question, opt;
  std::vector<uint16_t> counts;
};

Sent read_sent(const std::vector<uint8_t>& msg) {
  Sent out;
  dns::Reader r(msg.data(), msg.size());
  dns::Header h;
  dns::Question q;
  if (!r.header(h) || !r.question(q)) return out;
  out.id = h.id;
  out.counts = {h.qdcount, h.ancount, h.nscount, h.arcount};
  std::string flags = h.flags == dns::kFlagRD                    ? "RD"
                      : h.flags == (dns::kFlagRD | dns::kFlagCD) ? "RD CD"
                                                                 : "flags=" + std::to_string(h.flags);
  out.question = flags + " " + name_text(q.name) + " " + type_to_text(q.type) + " " + std::to_string(q.klass);
  dns::Record rec;
  dns::Edns edns;
  if (r.record(rec) && edns_from_record(r, rec, edns))
    out.opt = "udp=" + std::to_string(edns.udp_size) + " do=" + std::to_string(edns.flags >> 15) +
              " version=" + std::to_string(edns.version) + " options=" + std::to_string(edns.options.size);
  return out;
}

struct QueryCase {
  const char* rule;
  Ask ask;
  const char* question;
  const char* opt;
};

TEST(UpstreamQuery, RecursionDesiredAndTheClientsDoAndCd) {
  const std::string udp = "udp=" + std::to_string(dns::kEdnsUdpSize);
  const QueryCase cases[] = {
      {"plain", {N("www.example.com"), dns::kTypeA}, "RD www.example.com. A 1", "do=0"},
      {"the name as asked", {N("WWW.Example.com"), dns::kTypeAAAA}, "RD WWW.Example.com. AAAA 1", "do=0"},
      {"DO from the client", {N("a.test"), dns::kTypeA, true, false}, "RD a.test. A 1", "do=1"},
      {"CD from the client", {N("a.test"), dns::kTypeA, false, true}, "RD CD a.test. A 1", "do=0"},
      {"both", {N("a.test"), dns::kTypeMX, true, true}, "RD CD a.test. MX 1", "do=1"},
  };
  for (const QueryCase& c : cases) {
    Sent sent = read_sent(upstream_query(c.ask));
    EXPECT_EQ(sent.question, c.question) << c.rule;
    EXPECT_EQ(sent.opt, udp + " " + c.opt + " version=0 options=0") << c.rule;
    EXPECT_EQ(sent.counts, (std::vector<uint16_t>{1, 0, 0, 1})) << c.rule;
  }
}

TEST(UpstreamQuery, AFreshIdEachTime) {
  std::set<uint16_t> ids;
  for (int i = 0; i < 64; i++) ids.insert(read_sent(upstream_query(Ask{N("a.test"), dns::kTypeA})).id);
  EXPECT_GT(ids.size(), 32u);
}

TEST(ProbeQuery, TheRootsNs) {
  Sent sent = read_sent(probe_query());
  EXPECT_EQ(sent.question, "RD . NS 1");
  EXPECT_EQ(sent.counts, (std::vector<uint16_t>{1, 0, 0, 1}));
}

}  // namespace
}  // namespace rk8s::server::test
