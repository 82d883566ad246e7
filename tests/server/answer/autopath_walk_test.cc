// SPDX-License-Identifier: Apache-2.0
// The server side of docs/autopath-protocol.md, rule by rule.
#include "server/answer/autopath_walk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "tests/server/fixture.h"
#include "server/util/dns_text.h"

namespace rk8s::server {
namespace {

using test::N;
using test::records_text;
using Strings = std::vector<std::string>;

const Strings kShopSearch = {"shop.svc.cluster.local", "svc.cluster.local", "cluster.local", "."};

struct WalkCase {
  const char* rule;
  const char* qname;
  Strings suffixes;
  uint16_t qtype;
  uint8_t flags;
  Strings faults;  // --rcode specs, or "drop NAME"
  uint8_t status;
  uint8_t index;
  uint8_t rcode;
  const char* alias;  // "TARGET TTL" of the synthesized CNAME, "" for none
  Strings answer;
  Strings additional;
};

autopath::QueryOption option(const Strings& suffixes, uint8_t flags) {
  autopath::QueryOption q;
  q.flags = uint8_t(autopath::kFlagQ | flags);
  for (const std::string& s : suffixes) q.suffix[q.count++] = N(s.c_str());
  return q;
}

TEST(AutopathWalk, Rules) {
  using namespace autopath;
  const WalkCase cases[] = {
      {"first candidate: its own answer, no CNAME", "web.shop.svc.cluster.local", kShopSearch,
       dns::kTypeA, 0, {}, kMatched, 0, dns::kNoError, "",
       {"web.shop.svc.cluster.local. A 10.96.1.10"}, {}},
      {"later candidate: CNAME from QNAME first", "web.shop.shop.svc.cluster.local", kShopSearch,
       dns::kTypeA, 0, {}, kMatched, 1, dns::kNoError, "web.shop.svc.cluster.local. 5",
       {"web.shop.svc.cluster.local. A 10.96.1.10"}, {}},
      {"external name after the whole search list", "www.example.com.shop.svc.cluster.local",
       kShopSearch, dns::kTypeA, 0, {}, kMatched, 3, dns::kNoError, "www.example.com. 5",
       {"www.example.com. A 93.184.216.34"}, {}},
      {"CNAME TTL: skipped candidate's negative TTL", "www.sub.example.com",
       {"sub.example.com", "example.com"}, dns::kTypeA, 0, {}, kMatched, 1, dns::kNoError,
       "www.example.com. 60", {"www.example.com. A 93.184.216.34"}, {}},
      {"CNAME TTL: lowest matched record, chain included", "chain.sub.example.com",
       {"sub.example.com", "example.com"}, dns::kTypeA, 0, {}, kMatched, 1, dns::kNoError,
       "chain.example.com. 30",
       {"chain.example.com. CNAME alias.example.com.", "alias.example.com. CNAME www.example.com.",
        "www.example.com. A 93.184.216.34"}, {}},
      {"default: NODATA continues", "v6only.example.com", {"example.com", "corp.example"},
       dns::kTypeA, 0, {}, kMatched, 1, dns::kNoError, "v6only.corp.example. 60",
       {"v6only.corp.example. A 10.1.1.1"}, {}},
      {"EXHAUSTED: QNAME's own NXDOMAIN", "nope.shop.svc.cluster.local", kShopSearch,
       dns::kTypeA, 0, {}, kExhausted, kNoIndex, dns::kNxDomain, "", {}, {}},
      {"EXHAUSTED: QNAME's own NODATA", "v4only.example.com", {"example.com", "."},
       dns::kTypeAAAA, 0, {}, kExhausted, kNoIndex, dns::kNoError, "", {}, {}},
      {"PAIRED: the other family matches, NODATA", "v4only.example.com", {"example.com", "."},
       dns::kTypeAAAA, kFlagPaired, {}, kMatched, 0, dns::kNoError, "", {}, {}},
      {"PAIRED at i > 0: CNAME, NODATA, SOA TTL", "v4only.sub.example.com",
       {"sub.example.com", "example.com"}, dns::kTypeAAAA, kFlagPaired, {}, kMatched, 1,
       dns::kNoError, "v4only.example.com. 60", {}, {}},
      {"PAIRED: neither family continues", "shop.svc.cluster.local",
       {"svc.cluster.local", "."}, dns::kTypeA, kFlagPaired, {}, kExhausted, kNoIndex,
       dns::kNoError, "", {}, {}},
      {"STOP_ON_EXISTS: an empty non-terminal stops", "shop.svc.cluster.local",
       {"svc.cluster.local", "."}, dns::kTypeA, kFlagStopOnExists, {}, kMatched, 0,
       dns::kNoError, "", {}, {}},
      {"STOP_ON_EXISTS: NXDOMAIN continues", "v4only.shop.svc.cluster.local",
       {"shop.svc.cluster.local", "example.com"}, dns::kTypeAAAA, kFlagStopOnExists, {},
       kMatched, 1, dns::kNoError, "v4only.example.com. 5", {}, {}},
      {"a failed candidate ends the walk, a later match unseen", "web.shop.shop.svc.cluster.local",
       kShopSearch, dns::kTypeA, 0, {"web.shop.shop.svc.cluster.local=SERVFAIL"}, kServfailSeen,
       kNoIndex, dns::kServFail, "", {}, {}},
      {"SERVFAIL_SEEN when nothing matches", "nope.shop.svc.cluster.local", kShopSearch,
       dns::kTypeA, 0, {"nope.svc.cluster.local=SERVFAIL"}, kServfailSeen, kNoIndex,
       dns::kServFail, "", {}, {}},
      {"REFUSED counts as a failed candidate", "nope.shop.svc.cluster.local", kShopSearch,
       dns::kTypeA, 0, {"nope.cluster.local/A=REFUSED"}, kServfailSeen, kNoIndex,
       dns::kServFail, "", {}, {}},
      {"fault on another type does not apply", "nope.shop.svc.cluster.local", kShopSearch,
       dns::kTypeA, 0, {"nope.cluster.local/AAAA=SERVFAIL"}, kExhausted, kNoIndex,
       dns::kNxDomain, "", {}, {}},
      {"BOTH: the matched name's AAAA in additional", "www.sub.example.com",
       {"sub.example.com", "example.com"}, dns::kTypeA, kFlagBoth, {}, kMatched, 1,
       dns::kNoError, "www.example.com. 60", {"www.example.com. A 93.184.216.34"},
       {"www.example.com. AAAA 2606:2800:220:1:248:1893:25c8:1946"}},
      {"BOTH: no AAAA is an empty set", "v4only.example.com", {"example.com"}, dns::kTypeA,
       kFlagBoth, {}, kMatched, 0, dns::kNoError, "", {"v4only.example.com. A 192.0.2.4"}, {}},
      {"the search-domain wildcard answers first, as in the classic walk",
       "google.com.corp.example", {"corp.example", "."}, dns::kTypeA, 0, {}, kMatched, 0,
       dns::kNoError, "", {"google.com.corp.example. A 10.1.1.1"}, {}},
      {"REJECTED: suffix[0] does not end QNAME", "web.shop.svc.cluster.local",
       {"example.com", "."}, dns::kTypeA, 0, {}, kRejected, kNoIndex, dns::kNoError, "", {}, {}},
      {"REJECTED: empty base", "cluster.local", {"cluster.local", "."}, dns::kTypeA, 0, {},
       kRejected, kNoIndex, dns::kNoError, "", {}, {}},
  };
  for (const WalkCase& c : cases) {
    NameFaults faults;
    for (const std::string& f : c.faults) ASSERT_TRUE(faults.add_rcode(f)) << f;
    AutopathWalk w = test::walk(faults, N(c.qname), c.qtype,
                                     option(c.suffixes, c.flags));
    EXPECT_FALSE(w.drop) << c.rule;
    EXPECT_EQ(w.option.status, c.status) << c.rule;
    EXPECT_EQ(w.option.index, c.index) << c.rule;
    if (c.status == kRejected) continue;
    EXPECT_EQ(w.resolution.rcode, c.rcode) << c.rule;
    std::string alias = w.alias ? name_text(rr_target(*w.alias)) + " " + std::to_string(w.alias->ttl) : "";
    EXPECT_EQ(alias, c.alias) << c.rule;
    if (c.status == kMatched) {
      EXPECT_EQ(records_text(w.resolution.records), c.answer) << c.rule;
    }
    std::vector<RrRef> aaaa;
    for (const RrRef& r : w.both.records)
      if (r.rr->type == dns::kTypeAAAA) aaaa.push_back(r);
    EXPECT_EQ(records_text(aaaa), c.additional) << c.rule;
    bool honoured = (c.flags & kFlagBoth) && c.qtype == dns::kTypeA && c.status == kMatched;
    EXPECT_EQ(bool(w.option.flags & kFlagBoth), honoured) << c.rule;
    bool negative = c.status == kExhausted || (c.status == kMatched && c.answer.empty());
    EXPECT_EQ(bool(w.resolution.soa()), negative) << c.rule;
  }
}

// PAST_NODATA: glibc's walk, which goes on past NODATA and stops at a
// positive answer (NOERROR with records, a CNAME alone will do).
TEST(AutopathWalk, PastNodata) {
  using namespace autopath;
  constexpr uint8_t kPast = kFlagStopOnExists | kFlagPastNodata;
  const struct {
    const char* rule;
    const char* qname;
    Strings suffixes;
    uint16_t qtype;
    uint8_t flags;
    Strings faults;
    uint8_t status, index, nodata;
    bool both;  // BOTH echoed
  } cases[] = {
      {"NODATA walked past and reported", "v6only.example.com", {"example.com", "corp.example"},
       dns::kTypeA, kPast, {}, kMatched, 1, 0, false},
      {"PAIRED: the other family is positive", "v6only.example.com", {"example.com", "."},
       dns::kTypeA, kPast | kFlagPaired, {}, kMatched, 0, kNoIndex, false},
      {"PAIRED: NODATA for both, then NXDOMAIN", "shop.svc.cluster.local",
       {"svc.cluster.local", "."}, dns::kTypeA, kPast | kFlagPaired, {}, kExhausted, kNoIndex, 0,
       false},
      {"a CNAME alone is positive", "payments.shop.svc.cluster.local",
       {"shop.svc.cluster.local", "."}, dns::kTypeAAAA, kPast, {}, kMatched, 0, kNoIndex, false},
      {"only the first NODATA is reported", "empty.shop.svc.cluster.local",
       {"shop.svc.cluster.local", "svc.cluster.local", "cluster.local"}, dns::kTypeA, kPast, {},
       kExhausted, kNoIndex, 1, false},
      {"the other family failing ends the walk", "v6only.example.com", {"example.com", "."},
       dns::kTypeA, kPast | kFlagPaired, {"v6only.example.com/AAAA=SERVFAIL"}, kServfailSeen,
       kNoIndex, kNoIndex, false},
      {"BOTH echoed with the AAAA answer", "www.example.com", {"example.com", "."},
       dns::kTypeA, kPast | kFlagPaired | kFlagBoth, {}, kMatched, 0, kNoIndex, true},
      {"BOTH not echoed when the AAAA answer failed", "www.example.com", {"example.com", "."},
       dns::kTypeA, kPast | kFlagPaired | kFlagBoth, {"www.example.com/AAAA=SERVFAIL"}, kMatched, 0,
       kNoIndex, false},
      {"one candidate, BOTH", "www.example.com", {"."}, dns::kTypeA,
       kPast | kFlagPaired | kFlagBoth, {}, kMatched, 0, kNoIndex, true},
  };
  for (const auto& c : cases) {
    NameFaults faults;
    for (const std::string& f : c.faults) ASSERT_TRUE(faults.add_rcode(f)) << f;
    AutopathWalk w = test::walk(faults, N(c.qname), c.qtype, option(c.suffixes, c.flags));
    EXPECT_EQ(w.option.status, c.status) << c.rule;
    EXPECT_EQ(w.option.index, c.index) << c.rule;
    EXPECT_EQ(w.option.nodata, c.nodata) << c.rule;
    EXPECT_TRUE(w.option.flags & kFlagPastNodata) << c.rule;
    EXPECT_EQ(bool(w.option.flags & kFlagBoth), c.both) << c.rule;
  }
  // Without the flag: no NODATA index, no echo.
  AutopathWalk w = test::walk(NameFaults{}, N("v6only.example.com"), dns::kTypeA,
                              option({"example.com", "corp.example"}, 0));
  EXPECT_EQ(w.option.nodata, kNoIndex);
  EXPECT_EQ(w.option.flags, 0);
}

TEST(AutopathWalk, DroppedCandidateDropsTheQuery) {
  NameFaults faults;
  ASSERT_TRUE(faults.add_drop("web.svc.cluster.local"));
  AutopathWalk w = test::walk(faults, N("web.shop.svc.cluster.local"), dns::kTypeA,
                                   option({"shop.svc.cluster.local", "svc.cluster.local"}, 0));
  EXPECT_FALSE(w.drop) << "matched before the dropped candidate";
  w = test::walk(
      faults, N("web.default.svc.cluster.local"), dns::kTypeA,
      option({"default.svc.cluster.local", "svc.cluster.local", "cluster.local"}, 0));
  EXPECT_TRUE(w.drop);
  EXPECT_EQ(w.walked, 2u);
}

// A candidate the query's upstream budget could not ask: REJECTED, not a
// drop, so the handler answers QNAME plainly and the client walks on.
TEST(AutopathWalk, OverBudgetCandidateRejects) {
  class Budgeted : public Source {
   public:
    void resolve(const Ask& ask, Resolved done) override {
      Resolution res;
      res.rcode = dns::kNxDomain;
      if (dns::name_equal(ask.name, N("web.svc.cluster.local"))) {
        res.rcode = dns::kServFail;
        res.over_budget = true;
      }
      done(&res);
    }
  } source;
  Router router;
  router.set_fallback(&source);
  AutopathWalk w;
  walk_candidates(router, Ask{N("web.shop.svc.cluster.local"), dns::kTypeA},
                  option({"shop.svc.cluster.local", "svc.cluster.local", "cluster.local"}, 0),
                  [&](AutopathWalk& done) { w = done; });
  EXPECT_EQ(w.option.status, autopath::kRejected);
  EXPECT_FALSE(w.drop);
  EXPECT_EQ(w.walked, 2u);
}

// Each question the walk asks, named "NAME TYPE", passed on to the
// fixtures' world.
class Logged : public Source {
 public:
  explicit Logged(Source& inner) : inner_(inner) {}
  void resolve(const Ask& ask, Resolved done) override {
    asked.push_back(name_text(ask.name) + " " + type_to_text(ask.type));
    inner_.resolve(ask, std::move(done));
  }
  Strings asked;

 private:
  Source& inner_;
};

// The same walk without cuts and with `cuts`, over the fixtures' world
// (`faults` in its way): each walk's outcome and the questions it asked.
struct CutWalks {
  AutopathWalk uncut, cut;
  Strings asked_uncut, asked_cut;
  // Questions the uncut walk asks and the cut one does not, and the reverse.
  Strings unasked() const { return missing_from(asked_uncut, asked_cut); }
  Strings added() const { return missing_from(asked_cut, asked_uncut); }

  static Strings missing_from(const Strings& all, const Strings& some) {
    Strings out;
    for (const std::string& q : all)
      if (std::find(some.begin(), some.end(), q) == some.end()) out.push_back(q);
    return out;
  }
};

CutWalks walk_cut_and_uncut(const char* qname, uint16_t qtype, uint8_t flags, const WalkCuts& cuts,
                            const NameFaults& faults = {}, const Strings& search = kShopSearch) {
  test::FixtureWorld world(faults);
  CutWalks out;
  for (int cut = 0; cut < 2; cut++) {
    Logged logged(world.world);
    Router router;
    router.set_fallback(&logged);
    walk_candidates(router, Ask{N(qname), qtype}, option(search, flags),
                    [&](AutopathWalk& w) { (cut ? out.cut : out.uncut) = w; }, nullptr,
                    cut ? cuts : WalkCuts{});
    (cut ? out.asked_cut : out.asked_uncut) = logged.asked;
  }
  return out;
}

// A cut walk ends as it ends uncut: same status, answer, CNAME and SOA.
void expect_same_outcome(const CutWalks& walks, const char* rule) {
  const AutopathWalk &uncut = walks.uncut, &w = walks.cut;
  EXPECT_EQ(w.option.status, uncut.option.status) << rule;
  EXPECT_EQ(w.option.index, uncut.option.index) << rule;
  EXPECT_EQ(w.option.flags, uncut.option.flags) << rule;
  EXPECT_EQ(w.walked, uncut.walked) << rule;
  EXPECT_EQ(w.resolution.rcode, uncut.resolution.rcode) << rule;
  EXPECT_EQ(records_text(w.resolution.records), records_text(uncut.resolution.records)) << rule;
  EXPECT_EQ(records_text(w.both.records), records_text(uncut.both.records)) << rule;
  ASSERT_EQ(bool(w.resolution.soa()), bool(uncut.resolution.soa())) << rule;
  if (w.resolution.soa()) {
    EXPECT_EQ(records_text({*w.resolution.soa()}), records_text({*uncut.resolution.soa()})) << rule;
  }
  EXPECT_EQ(w.skipped_ttl, uncut.skipped_ttl) << rule;
  std::string alias[2];
  const AutopathWalk* both[2] = {&uncut, &w};
  for (int i = 0; i < 2; i++)
    if (both[i]->alias) alias[i] = name_text(rr_target(*both[i]->alias)) + " " + std::to_string(both[i]->alias->ttl);
  EXPECT_EQ(alias[1], alias[0]) << rule;
}

constexpr uint8_t kGlibcFlags =
    autopath::kFlagStopOnExists | autopath::kFlagPastNodata | autopath::kFlagPaired | autopath::kFlagBoth;

// The schema cut walks past the candidates it makes NXDOMAIN unasked.
TEST(AutopathWalk, SchemaCutSkipsOnlyWhatIsCertain) {
  constexpr uint8_t kGlibc = kGlibcFlags;
  const struct {
    const char* rule;
    const char* qname;
    uint16_t qtype;
    uint8_t flags;
    Strings unasked;  // questions the uncut walk asks and the cut one does not
  } cases[] = {
      {"an external name: its candidate in the namespace", "www.example.com.shop.svc.cluster.local",
       dns::kTypeA, 0, {"www.example.com.shop.svc.cluster.local. A"}},
      {"glibc's flags", "www.example.com.shop.svc.cluster.local", dns::kTypeA, kGlibc,
       {"www.example.com.shop.svc.cluster.local. A"}},
      {"EXHAUSTED: QNAME's own asked at the end, ns `com` cut", "a.www.example.com.shop.svc.cluster.local",
       dns::kTypeAAAA, 0, {"a.www.example.com.svc.cluster.local. AAAA"}},
      {"EXHAUSTED: QNAME's own asked at the end", "nope.example.com.shop.svc.cluster.local",
       dns::kTypeA, kGlibc, {}},
      {"a Service", "web.shop.svc.cluster.local", dns::kTypeA, kGlibc, {}},
      {"a headless endpoint", "db-0.db.shop.svc.cluster.local", dns::kTypeA, 0, {}},
      {"two labels in the namespace", "example.com.shop.svc.cluster.local", dns::kTypeA, 0, {}},
      {"SRV", "_http._tcp.web.shop.svc.cluster.local", dns::kTypeSRV, 0, {}},
      {"a type the schema does not name", "www.example.com.shop.svc.cluster.local", dns::kTypeTXT, 0, {}},
  };
  WalkCuts cuts{N("cluster.local")};
  for (const auto& c : cases) {
    CutWalks walks = walk_cut_and_uncut(c.qname, c.qtype, c.flags, cuts);
    EXPECT_EQ(walks.unasked(), c.unasked) << c.rule;
    EXPECT_EQ(walks.added(), Strings{}) << c.rule;
    EXPECT_EQ(walks.asked_cut.size() + c.unasked.size(), walks.asked_uncut.size()) << c.rule << ": nothing asked twice";
    EXPECT_EQ(walks.cut.cut.schema, c.unasked.size()) << c.rule;
    EXPECT_EQ(walks.cut.cut.rfc8020, 0u) << c.rule;
    EXPECT_EQ(walks.uncut.cut.schema, 0u) << c.rule;
    expect_same_outcome(walks, c.rule);
  }
}

// The RFC 8020 cut asks the name one label below a candidate's search
// domain first; its NXDOMAIN answers the candidate, and the walk ends as it
// ends uncut.
TEST(AutopathWalk, Rfc8020CutAsksOneProbePerCandidate) {
  const struct {
    const char* rule;
    const char* qname;
    uint16_t qtype;
    uint8_t flags;
    const char* dropped;  // a name the world never answers, or null
    Strings unasked;      // the candidates' questions the probes answered
    Strings added;        // the probes
  } cases[] = {
      {"an external name: every cluster candidate", "www.example.com.shop.svc.cluster.local", dns::kTypeA, 0, nullptr,
       {"www.example.com.shop.svc.cluster.local. A", "www.example.com.svc.cluster.local. A",
        "www.example.com.cluster.local. A"},
       {"com.shop.svc.cluster.local. A", "com.svc.cluster.local. A", "com.cluster.local. A"}},
      {"glibc's flags", "www.example.com.shop.svc.cluster.local", dns::kTypeA, kGlibcFlags, nullptr,
       {"www.example.com.shop.svc.cluster.local. A", "www.example.com.svc.cluster.local. A",
        "www.example.com.cluster.local. A"},
       {"com.shop.svc.cluster.local. A", "com.svc.cluster.local. A", "com.cluster.local. A"}},
      {"EXHAUSTED: QNAME's own NXDOMAIN from its probe", "nope.example.com.shop.svc.cluster.local",
       dns::kTypeAAAA, 0, nullptr,
       {"nope.example.com.shop.svc.cluster.local. AAAA", "nope.example.com.svc.cluster.local. AAAA",
        "nope.example.com.cluster.local. AAAA"},
       {"com.shop.svc.cluster.local. A", "com.svc.cluster.local. A", "com.cluster.local. A"}},
      {"a Service in another namespace: the namespace exists", "web.shop.shop.svc.cluster.local", dns::kTypeA, 0,
       nullptr, {"web.shop.shop.svc.cluster.local. A"},
       {"shop.shop.svc.cluster.local. A", "shop.svc.cluster.local. A"}},
      {"a headless endpoint: its Service exists", "db-0.db.shop.svc.cluster.local", dns::kTypeA, 0, nullptr, {},
       {"db.shop.svc.cluster.local. A"}},
      {"a Service: one label, no probe", "web.shop.svc.cluster.local", dns::kTypeA, kGlibcFlags, nullptr, {}, {}},
      {"a dropped probe: the candidate asked", "www.example.com.shop.svc.cluster.local", dns::kTypeA, 0,
       "com.shop.svc.cluster.local",
       {"www.example.com.svc.cluster.local. A", "www.example.com.cluster.local. A"},
       {"com.shop.svc.cluster.local. A", "com.svc.cluster.local. A", "com.cluster.local. A"}},
  };
  WalkCuts cuts;
  cuts.rfc8020 = N("cluster.local");
  for (const auto& c : cases) {
    NameFaults faults;
    if (c.dropped) {
      ASSERT_TRUE(faults.add_drop(c.dropped)) << c.rule;
    }
    CutWalks walks = walk_cut_and_uncut(c.qname, c.qtype, c.flags, cuts, faults);
    EXPECT_EQ(walks.unasked(), c.unasked) << c.rule;
    EXPECT_EQ(walks.added(), c.added) << c.rule;
    EXPECT_EQ(walks.cut.cut.rfc8020, c.unasked.size()) << c.rule;
    EXPECT_EQ(walks.cut.cut.schema, 0u) << c.rule;
    expect_same_outcome(walks, c.rule);
  }
}

// No probe where an NXDOMAIN need not hold below: one label under a
// Service, which CoreDNS reads as an endpoint (`_tcp.web.<ns>.svc` is
// NXDOMAIN while `_http._tcp.web.<ns>.svc` has its SRV record), and the
// node's own search domains, which another DNS than the cluster's answers.
TEST(AutopathWalk, Rfc8020CutProbesOnlyWhereCoreDnsNxdomainHoldsBelow) {
  const Strings kServiceFirst = {"web.shop.svc.cluster.local", "shop.svc.cluster.local", "svc.cluster.local"};
  const Strings kNodeSearch = {"shop.svc.cluster.local", "svc.cluster.local", "cluster.local", "corp.example"};
  const struct {
    const char* rule;
    const char* qname;
    uint16_t qtype;
    const Strings& search;
    Strings added;  // the probes
  } cases[] = {
      {"SRV below a Service's endpoint-shaped NXDOMAIN", "_http._tcp.web.shop.svc.cluster.local", dns::kTypeSRV,
       kServiceFirst, {}},
      {"the node's search domain: no probe", "www.example.com.shop.svc.cluster.local", dns::kTypeA, kNodeSearch,
       {"com.shop.svc.cluster.local. A", "com.svc.cluster.local. A", "com.cluster.local. A"}},
  };
  WalkCuts cuts;
  cuts.rfc8020 = N("cluster.local");
  NameFaults faults;  // CoreDNS's answer there
  ASSERT_TRUE(faults.add_rcode("_tcp.web.shop.svc.cluster.local=NXDOMAIN"));
  for (const auto& c : cases) {
    CutWalks walks = walk_cut_and_uncut(c.qname, c.qtype, 0, cuts, faults, c.search);
    EXPECT_EQ(walks.added(), c.added) << c.rule;
    expect_same_outcome(walks, c.rule);
  }
}

// With both cuts, QNAME's own, cut by the schema, is answered at the end by
// its probe.
TEST(AutopathWalk, BothCutsAskQnamesOwnProbe) {
  WalkCuts cuts{N("cluster.local"), N("cluster.local")};
  CutWalks walks = walk_cut_and_uncut("nope.example.com.shop.svc.cluster.local", dns::kTypeA, 0, cuts);
  EXPECT_EQ(walks.unasked(), (Strings{"nope.example.com.shop.svc.cluster.local. A",
                                      "nope.example.com.svc.cluster.local. A", "nope.example.com.cluster.local. A"}));
  EXPECT_EQ(walks.added(),
            (Strings{"com.svc.cluster.local. A", "com.cluster.local. A", "com.shop.svc.cluster.local. A"}));
  EXPECT_EQ(walks.cut.cut.schema, 0u) << "QNAME's own counted where it was answered";
  EXPECT_EQ(walks.cut.cut.rfc8020, 3u);
  expect_same_outcome(walks, "both cuts");
}

// A walk's state is charged to its client while it lasts; with no room in
// the budget for it the walk is REJECTED, and the client walks on itself.
TEST(AutopathWalk, ItsStateIsChargedToItsClient) {
  test::FixtureWorld world;
  Ask ask{N("www.example.com.shop.svc.cluster.local"), dns::kTypeA};
  ask.scope = std::make_shared<QueryScope>();
  for (size_t budget : {size_t(1000), size_t(1) << 20}) {
    HeldBytes held(budget);
    AutopathWalk w;
    size_t during = 0;
    walk_candidates(
        world.router, ask, option(kShopSearch, 0),
        [&](AutopathWalk& done) {
          w = done;
          during = held.used();
        },
        &held);
    EXPECT_EQ(w.option.status, budget == 1000 ? autopath::kRejected : autopath::kMatched) << budget;
    EXPECT_EQ(during > 0, budget != 1000) << budget;
    EXPECT_EQ(held.used(), 0u) << "given back as the walk ends";
  }
}

TEST(AutopathWalk, CountsCandidatesWalked) {
  AutopathWalk w = test::walk(NameFaults{},
                                   N("www.example.com.shop.svc.cluster.local"), dns::kTypeA,
                                   option(kShopSearch, 0));
  EXPECT_EQ(w.walked, 4u);
}

// A source that answers when the test says: NXDOMAIN but for candidate
// `found`. It names each question by candidate: "2 A".
class Deferred : public Source {
 public:
  Deferred(const Strings& candidates, size_t found) : candidates_(candidates), found_(found) {}
  void resolve(const Ask& ask, Resolved done) override {
    size_t i = index(ask.name);
    asked.push_back(std::to_string(i) + (ask.type == dns::kTypeA ? " A" : " AAAA"));
    open_.push_back({ask, std::move(done)});
  }
  // Answers question `q` ("2 A"), which must be open.
  void answer(const std::string& q) {
    auto it = std::find_if(open_.begin(), open_.end(), [&](const auto& o) {
      return std::to_string(index(o.first.name)) + (o.first.type == dns::kTypeA ? " A" : " AAAA") == q;
    });
    ASSERT_NE(it, open_.end()) << q;
    auto [ask, done] = std::move(*it);
    open_.erase(it);
    Resolution res;
    res.recursive = true;
    if (index(ask.name) == found_) {
      res.records.push_back(RrRef{ask.name, ask.type == dns::kTypeA ? &a_ : &aaaa_});
      res.has_data = true;
    } else {
      res.rcode = dns::kNxDomain;
    }
    done(&res);
  }
  Strings asked;

 private:
  size_t index(const Name& name) const {
    for (size_t i = 0; i < candidates_.size(); i++)
      if (dns::name_equal(name, N(candidates_[i].c_str()))) return i;
    return SIZE_MAX;
  }
  Strings candidates_;
  size_t found_;
  std::vector<std::pair<Ask, Resolved>> open_;
  Rr a_{dns::kTypeA, 30, {192, 0, 2, 1}}, aaaa_{dns::kTypeAAAA, 30, std::vector<uint8_t>(16, 1)};
};

// With BOTH: candidate 0 for both families, then the A of later ones, then
// the AAAA of the last first; after k misses never more than the classic
// walk's 2k + 2 queries, one of them left for the AAAA of the match.
TEST(AutopathWalk, AsksAheadWithinTheClassicWalk) {
  // 0-2 the cluster's, 3 a host search domain, 4 the name as typed.
  const Strings search = {"shop.svc.cluster.local", "svc.cluster.local", "cluster.local", "ec2.internal", "."};
  Strings names;
  for (const std::string& s : search) names.push_back(s == "." ? "www.example.com" : "www.example.com." + s);
  struct Step {
    const char* answer;  // the question answered next ("" to start)
    Strings asked;       // what the walk asks then
  };
  const std::vector<std::pair<size_t, std::vector<Step>>> walks = {
      {4, {{"", {"0 A", "0 AAAA"}},
           {"0 A", {"1 A"}},
           {"0 AAAA", {}},
           {"1 A", {"2 A", "3 A"}},
           {"2 A", {"4 A", "4 AAAA"}},
           {"3 A", {}},
           {"4 A", {}},
           {"4 AAAA", {}}}},
      {0, {{"", {"0 A", "0 AAAA"}}, {"0 A", {}}, {"0 AAAA", {}}}},
      {3, {{"", {"0 A", "0 AAAA"}},
           {"0 A", {"1 A"}},
           {"1 A", {"2 A", "3 A"}},
           {"2 A", {"4 A", "4 AAAA"}},
           {"3 A", {"3 AAAA"}},
           {"3 AAAA", {}}}},
  };
  for (const auto& [found, steps] : walks) {
    Deferred source(names, found);
    Router router;
    router.set_fallback(&source);
    std::optional<AutopathWalk> done;
    walk_candidates(router, Ask{N(names[0].c_str()), dns::kTypeA},
                    option(search, autopath::kFlagStopOnExists | autopath::kFlagBoth),
                    [&](AutopathWalk& w) { done = w; });
    size_t seen = 0;
    for (const Step& step : steps) {
      if (*step.answer) source.answer(step.answer);
      Strings fresh(source.asked.begin() + long(seen), source.asked.end());
      EXPECT_EQ(fresh, step.asked) << "found at " << found << ", after " << step.answer;
      seen = source.asked.size();
    }
    ASSERT_TRUE(done) << "found at " << found;
    EXPECT_EQ(done->option.status, autopath::kMatched);
    EXPECT_EQ(done->option.index, found);
    EXPECT_TRUE(done->option.flags & autopath::kFlagBoth);
    EXPECT_LE(source.asked.size(), 2 * found + 2);
  }
}

}  // namespace
}  // namespace rk8s::server
