// SPDX-License-Identifier: Apache-2.0
// The lookup engine against an in-process fake server: the classic walk of
// each libc, query for query, and the autopath exchanges of the protocol.
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "dns/autopath.h"
#include "lookup/lookup.h"
#include "util/text.h"

namespace rk8s {
namespace {

// autopath_v1: a server that knows no flag after BOTH (it ignores PAST_NODATA).
enum class Mode { plain, autopath, autopath_v1, formerr, echo };

struct Rr {
  uint16_t type;
  std::string data;  // address text, or CNAME target
};

// Names are lower-case and end without a dot. A name with no records but
// present in `nodata` exists (NODATA); `servfail` names fail.
struct Fake {
  Mode mode = Mode::plain;
  std::map<std::string, std::vector<Rr>> zone;
  std::map<std::string, uint8_t> rcode;  // forced rcode per name
  std::set<std::string> broken;          // "name TYPE": one answer counted past those written
  std::vector<std::string> log;          // "name TYPE [+opt]"
  std::vector<std::vector<uint8_t>> replies;
};

Fake* fake;

dns::Name name_of(const std::string& s) {
  dns::Name n;
  EXPECT_TRUE(dns::name_from_text(Str{s.data(), s.size()}, n)) << s;
  return n;
}

std::string text_of(const dns::Name& n) {
  char buf[1024];
  dns::name_to_text(n, buf, sizeof buf);
  std::string s = buf;
  for (char& c : s) c = ascii_lower(c);
  return s;
}

bool exists(const std::string& name) { return fake->zone.count(name) > 0; }

// The records answering (name, type): a CNAME chain, then the records.
// Returns the rcode.
uint8_t resolve(std::string name, uint16_t type, dns::Writer& w, bool write) {
  if (fake->rcode.count(name)) return fake->rcode[name];
  for (int hops = 0; hops < 8; hops++) {
    if (!exists(name)) return dns::kNxDomain;
    const std::vector<Rr>& rrs = fake->zone[name];
    if (!rrs.empty() && rrs[0].type == dns::kTypeCNAME) {
      if (write) {
        w.begin_record(dns::kAnswer, name_of(name), dns::kTypeCNAME, 60);
        w.rdata_name(name_of(rrs[0].data));
        w.end_record();
      }
      name = rrs[0].data;
      continue;
    }
    for (const Rr& rr : rrs) {
      if (rr.type != type || !write) continue;
      uint8_t addr[16];
      int af = type == dns::kTypeA ? AF_INET : AF_INET6;
      inet_pton(af, rr.data.c_str(), addr);
      w.record(dns::kAnswer, name_of(name), type, 60, Bytes{addr, type == dns::kTypeA ? 4u : 16u});
    }
    return dns::kNoError;
  }
  return dns::kServFail;
}

bool has_type(const std::string& name, uint16_t type) {
  if (!exists(name)) return false;
  for (const Rr& rr : fake->zone[name])
    if (rr.type == type || rr.type == dns::kTypeCNAME) return true;
  return false;
}

void answer(const uint8_t* q, size_t len, std::vector<uint8_t>& out) {
  dns::Reader r(q, len);
  dns::Header h;
  dns::Question question;
  ASSERT_TRUE(r.header(h) && r.question(question));
  std::string qname = text_of(question.name);
  Bytes opt{};
  dns::Record rec;
  while (r.record(rec)) {
    dns::Edns e;
    if (rec.type == dns::kTypeOPT && dns::edns_from_record(r, rec, e))
      dns::edns_option(e.options, autopath::kDefaultCode, opt);
  }
  std::string asked = qname + (question.type == dns::kTypeA ? " A" : " AAAA");
  fake->log.push_back(asked + (opt.data ? " +opt" : ""));
  out.assign(4096, 0);
  dns::Writer w(out.data(), out.size());
  w.header(h.id, dns::kFlagQR | dns::kFlagRD | dns::kFlagRA);
  w.question(question.name, question.type);
  if (opt.data && fake->mode == Mode::formerr) {
    w.set_rcode(dns::kFormErr);
  } else if (opt.data && (fake->mode == Mode::autopath || fake->mode == Mode::autopath_v1)) {
    autopath::QueryOption o;
    ASSERT_EQ(autopath::decode_query(opt, o), autopath::QueryDecode::ok);
    if (fake->mode == Mode::autopath_v1) o.flags &= ~autopath::kFlagPastNodata;
    dns::Name base;
    ASSERT_TRUE(dns::name_strip_suffix(question.name, o.suffix[0], base));
    autopath::ReplyOption reply{0, autopath::kExhausted, autopath::kNoIndex};
    for (size_t i = 0; i < o.count; i++) {
      dns::Name cand;
      dns::name_concat(base, o.suffix[i], cand);
      std::string c = text_of(cand);
      if (fake->rcode.count(c) && fake->rcode[c] != dns::kNxDomain) {
        reply.status = autopath::kServfailSeen;
        break;
      }
      bool data = (o.flags & autopath::kFlagPaired)
                      ? has_type(c, dns::kTypeA) || has_type(c, dns::kTypeAAAA)
                      : has_type(c, question.type);
      bool match = (o.flags & autopath::kFlagPastNodata)    ? data
                   : (o.flags & autopath::kFlagStopOnExists) ? exists(c)
                                                              : data;
      if (!match) {
        if (exists(c) && reply.nodata == autopath::kNoIndex) reply.nodata = uint8_t(i);
        continue;
      }
      reply.status = autopath::kMatched;
      reply.index = uint8_t(i);
      if (i > 0) {
        w.begin_record(dns::kAnswer, question.name, dns::kTypeCNAME, 60);
        w.rdata_name(cand);
        w.end_record();
      }
      resolve(c, question.type, w, true);
      if (o.flags & autopath::kFlagBoth) {
        reply.flags |= autopath::kFlagBoth;
        std::string end = c;
        while (exists(end) && !fake->zone[end].empty() && fake->zone[end][0].type == dns::kTypeCNAME)
          end = fake->zone[end][0].data;
        for (const Rr& rr : fake->zone[end]) {
          if (rr.type != dns::kTypeAAAA) continue;
          uint8_t addr[16];
          inet_pton(AF_INET6, rr.data.c_str(), addr);
          w.record(dns::kAdditional, name_of(end), dns::kTypeAAAA, 60, Bytes{addr, 16});
        }
      }
      break;
    }
    if (reply.status == autopath::kExhausted) w.set_rcode(resolve(qname, question.type, w, false));
    if (reply.status == autopath::kServfailSeen) w.set_rcode(dns::kServFail);
    if (o.flags & autopath::kFlagPastNodata) reply.flags |= autopath::kFlagPastNodata;
    else reply.nodata = autopath::kNoIndex;
    uint8_t payload[5];
    size_t n = autopath::encode_reply(reply, payload, sizeof payload);
    dns::EdnsOption eo{autopath::kDefaultCode, Bytes{payload, n}};
    w.opt(1232, 0, 0, &eo, 1);
  } else {
    w.set_flags(dns::kFlagQR | dns::kFlagRD | dns::kFlagRA | resolve(qname, question.type, w, true));
    if (opt.data && fake->mode == Mode::echo) {
      dns::EdnsOption eo{autopath::kDefaultCode, opt};
      w.opt(1232, 0, 0, &eo, 1);
    }
  }
  out.resize(w.size());
  if (fake->broken.count(asked)) out[7]++;  // the answer section breaks off
}

void fake_exchange(const Config&, const Bytes* queries, Reply* replies, size_t n) {
  fake->replies.resize(n);
  for (size_t i = 0; i < n; i++) {
    answer(queries[i].data, queries[i].size, fake->replies[i]);
    replies[i].status = Reply::ok;
    replies[i].msg = fake->replies[i].data();
    replies[i].len = fake->replies[i].size();
    replies[i].server = 0;
  }
}

const uint16_t kUnspec[] = {dns::kTypeA, dns::kTypeAAAA};
const uint16_t kInet[] = {dns::kTypeA};

int server_counter = 1;

Config config(Dialect d, const char* text) {
  Config c;
  std::string t = text;
  // A fresh server address per test: support memory is process-wide.
  t += "\nnameserver 127.0.1." + std::to_string(server_counter++) + "\n";
  parse_conf(d, t.data(), t.size(), ConfEnv{}, c);
  return c;
}

struct Outcome {
  LookupResult result;
  std::vector<std::string> log;
};

Outcome run(const Config& c, const char* name, const uint16_t* qtypes, size_t nq) {
  Plan plan;
  build_plan(c, str(name), plan);
  fake->log.clear();
  Outcome r;
  lookup({c, plan, qtypes, nq, fake_exchange}, r.result);
  r.log = fake->log;
  return r;
}

std::vector<std::string> addrs(const LookupResult& r) {
  std::vector<std::string> out;
  for (const IpAddr& a : r.addrs) {
    char buf[64];
    inet_ntop(a.family, a.addr, buf, sizeof buf);
    out.push_back(buf);
  }
  return out;
}

class LookupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake = &f;
    f.zone["web.s2.test"] = {{dns::kTypeA, "10.0.0.2"}, {dns::kTypeAAAA, "fd00::2"}};
    f.zone["v6.s1.test"] = {{dns::kTypeAAAA, "fd00::6"}};
    f.zone["alias.s3.test"] = {{dns::kTypeCNAME, "web.s2.test"}};
    f.zone["www.example.com"] = {{dns::kTypeA, "192.0.2.1"}};
  }
  Fake f;
};

const char* kPod = "search s1.test s2.test s3.test\noptions ndots:5\n";

TEST_F(LookupTest, GlibcClassicWalkStopsAtFirstMatch) {
  Outcome r = run(config(Dialect::glibc, kPod), "web", kUnspec, 2);
  EXPECT_EQ(r.result.status, Status::found);
  EXPECT_EQ(addrs(r.result), (std::vector<std::string>{"10.0.0.2", "fd00::2"}));
  EXPECT_EQ(text_of(r.result.canon), "web.s2.test");
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A +opt", "web.s1.test AAAA +opt",
                                             "web.s2.test A", "web.s2.test AAAA"}));
  EXPECT_TRUE(r.result.fell_back);
}

// glibc's gaih_getanswer, from the rewrite of 2.37 (1d495912a7) that the
// release branches took back to 2.34: a reply whose answer section breaks
// off is UNAVAIL; a first one (the A reply) ends the lookup whatever the
// AAAA reply said, a second one adds what it gave before the break to the
// first's addresses, or ends it when the first had none. The search stops
// at the candidate either way: its replies were NOERROR with answers.
TEST_F(LookupTest, GlibcPairWithABrokenReply) {
  f.zone["pair.s1.test"] = {{dns::kTypeA, "10.0.0.1"}, {dns::kTypeAAAA, "fd00::1"}};
  f.zone["a4.s1.test"] = {{dns::kTypeA, "10.0.0.4"}};
  const struct {
    const char* name;
    std::set<std::string> broken;
    Status status;
    std::vector<std::string> addrs;
  } kCases[] = {
      {"pair", {"pair.s1.test A"}, Status::host_not_found, {}},
      {"pair", {"pair.s1.test AAAA"}, Status::found, {"10.0.0.1", "fd00::1"}},
      {"a4", {"a4.s1.test AAAA"}, Status::found, {"10.0.0.4"}},  // broken before any address
      {"pair", {"pair.s1.test A", "pair.s1.test AAAA"}, Status::host_not_found, {}},
      {"v6", {"v6.s1.test AAAA"}, Status::host_not_found, {}},  // after A's NODATA
  };
  for (const auto& c : kCases) {
    f.broken = c.broken;
    Outcome r = run(config(Dialect::glibc, kPod), c.name, kUnspec, 2);
    std::string rule = std::string(c.name) + ", broken: " + *c.broken.begin();
    if (c.broken.size() > 1) rule += " and AAAA";
    EXPECT_EQ(r.result.status, c.status) << rule;
    EXPECT_EQ(addrs(r.result), c.addrs) << rule;
    EXPECT_EQ(r.log.size(), 2u) << rule;
  }
}

TEST_F(LookupTest, GlibcPlainServerIsRememberedAndSkipped) {
  Config c = config(Dialect::glibc, kPod);
  run(c, "web", kUnspec, 2);
  Outcome r = run(c, "web", kUnspec, 2);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A", "web.s1.test AAAA", "web.s2.test A",
                                             "web.s2.test AAAA"}));
}

TEST_F(LookupTest, AutopathFirstLookupTwoQueriesThenOne) {
  f.mode = Mode::autopath;
  Config c = config(Dialect::glibc, kPod);
  Outcome first = run(c, "web", kUnspec, 2);
  EXPECT_EQ(first.result.status, Status::found);
  EXPECT_EQ(first.log.size(), 2u);
  EXPECT_EQ(addrs(first.result), (std::vector<std::string>{"10.0.0.2", "fd00::2"}));
  EXPECT_EQ(text_of(first.result.canon), "web.s2.test");
  EXPECT_TRUE(first.result.autopath_answered);
  EXPECT_EQ(first.result.classic_queries, 4);
  Outcome second = run(c, "web", kUnspec, 2);
  EXPECT_EQ(second.log, (std::vector<std::string>{"web.s1.test A +opt"}));
  EXPECT_EQ(addrs(second.result), (std::vector<std::string>{"10.0.0.2", "fd00::2"}));
  EXPECT_EQ(text_of(second.result.canon), "web.s2.test");
}

TEST_F(LookupTest, AutopathBothCarriesAaaaOfALaterCandidate) {
  f.mode = Mode::autopath;
  f.zone["late6.s2.test"] = {{dns::kTypeAAAA, "fd00::9"}};
  Config c = config(Dialect::glibc, kPod);
  run(c, "late6", kUnspec, 2);
  Outcome second = run(c, "late6", kUnspec, 2);
  EXPECT_EQ(second.log, (std::vector<std::string>{"late6.s1.test A +opt"}));
  EXPECT_EQ(second.result.status, Status::found);
  EXPECT_EQ(addrs(second.result), (std::vector<std::string>{"fd00::9"}));
}

TEST_F(LookupTest, AutopathCanonicalNameFollowsCnameChain) {
  f.mode = Mode::autopath;
  Outcome r = run(config(Dialect::glibc, kPod), "alias", kInet, 1);
  EXPECT_EQ(r.log.size(), 1u);
  EXPECT_EQ(addrs(r.result), (std::vector<std::string>{"10.0.0.2"}));
  EXPECT_EQ(text_of(r.result.canon), "web.s2.test");
}

TEST_F(LookupTest, AutopathExhaustedIsNotFoundWithoutWalkingAgain) {
  f.mode = Mode::autopath;
  Outcome r = run(config(Dialect::glibc, kPod), "missing", kUnspec, 2);
  EXPECT_EQ(r.result.status, Status::host_not_found);
  EXPECT_EQ(r.log.size(), 2u);
}

TEST_F(LookupTest, GlibcNodataAnywhereEndsInNoData) {
  // v6 has only AAAA: an A walk sees NODATA at s1 and goes on.
  Outcome r = run(config(Dialect::glibc, kPod), "v6", kInet, 1);
  EXPECT_EQ(r.result.status, Status::no_data);
  EXPECT_EQ(r.log, (std::vector<std::string>{"v6.s1.test A +opt", "v6.s2.test A", "v6.s3.test A",
                                             "v6 A"}));
}

TEST_F(LookupTest, GlibcAutopathWalksPastNodataInOneQuery) {
  f.mode = Mode::autopath;
  Outcome r = run(config(Dialect::glibc, kPod), "v6", kInet, 1);
  EXPECT_EQ(r.result.status, Status::no_data);
  EXPECT_EQ(r.log, (std::vector<std::string>{"v6.s1.test A +opt"}));
  EXPECT_EQ(r.result.classic_queries, 4);
}

TEST_F(LookupTest, GlibcAutopathV1ServerStopsAtNodataAndIsAskedAgain) {
  f.mode = Mode::autopath_v1;
  Outcome r = run(config(Dialect::glibc, kPod), "v6", kInet, 1);
  EXPECT_EQ(r.result.status, Status::no_data);
  EXPECT_EQ(r.log, (std::vector<std::string>{"v6.s1.test A +opt", "v6.s2.test A +opt"}));
  EXPECT_EQ(r.result.classic_queries, 4);
}

TEST_F(LookupTest, GlibcAutopathFailureIsWalkedAgainClassically) {
  f.mode = Mode::autopath;
  f.rcode["web.s1.test"] = dns::kServFail;
  Outcome r = run(config(Dialect::glibc, kPod), "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::found);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A +opt", "web.s1.test A", "web.s2.test A"}));
}

// res_search's walk: the reply that decided, and what the candidates
// before it said.
TEST_F(LookupTest, OneTypeWalkKeepsTheDecidingReply) {
  f.zone["web.s1.test"] = {{dns::kTypeAAAA, "fd00::1"}};  // NODATA for A
  Config c = config(Dialect::glibc, kPod);
  Outcome plain = run(c, "web", kInet, 1);
  ASSERT_GT(plain.result.reply.size, 0u);
  EXPECT_EQ(plain.result.reply_candidate, 1);
  EXPECT_FALSE(plain.result.reply_option);
  EXPECT_EQ(plain.result.before, Status::no_data);

  f.mode = Mode::autopath;
  c = config(Dialect::glibc, kPod);
  Outcome r = run(c, "web", kInet, 1);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A +opt"}));
  ASSERT_GT(r.result.reply.size, 0u);
  EXPECT_EQ(r.result.reply_candidate, 1);
  EXPECT_TRUE(r.result.reply_option);
  EXPECT_TRUE(r.result.reply_cname);
  EXPECT_EQ(r.result.before, Status::no_data);

  Outcome missing = run(c, "missing", kInet, 1);
  EXPECT_EQ(missing.result.reply.size, 0u);
}

TEST_F(LookupTest, MuslAutopathFailureIsTryAgain) {
  f.mode = Mode::autopath;
  f.rcode["web.s1.test"] = dns::kRefused;
  Outcome r = run(config(Dialect::musl, kPod), "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::try_again);
  EXPECT_EQ(r.log.size(), 1u);
}

// Once the server has shown support, every AF_UNSPEC lookup is one query,
// and its results are the classic walk's.
TEST_F(LookupTest, OneQueryPerLookupOnceSupportIsKnown) {
  f.zone["nodata.s1.test"] = {};
  f.zone["nodata.s3.test"] = {{dns::kTypeA, "10.0.0.3"}};
  f.zone["a.b.c.d.e.f"] = {{dns::kTypeAAAA, "fd00::f"}};
  f.zone["empty.example.com"] = {};
  const char* names[] = {"web",  "v6", "alias", "nodata", "missing", "www.example.com.",
                         "a.b.c.d.e.f", "empty.example.com.", "www.example.com"};
  for (Dialect d : {Dialect::glibc, Dialect::musl}) {
    Config classic = config(d, kPod), autopath = config(d, kPod);
    f.mode = Mode::autopath;
    run(autopath, "web", kUnspec, 2);
    for (const char* name : names) {
      f.mode = Mode::plain;
      Outcome want = run(classic, name, kUnspec, 2);
      f.mode = Mode::autopath;
      Outcome got = run(autopath, name, kUnspec, 2);
      std::string rule = std::string(d == Dialect::glibc ? "glibc " : "musl ") + name;
      EXPECT_EQ(got.log.size(), 1u) << rule;
      EXPECT_EQ(got.result.status, want.result.status) << rule;
      EXPECT_EQ(addrs(got.result), addrs(want.result)) << rule;
      EXPECT_EQ(text_of(got.result.canon), text_of(want.result.canon)) << rule;
    }
  }
}

TEST_F(LookupTest, GlibcAsIsFirstErrorWinsOverLaterNodata) {
  f.mode = Mode::autopath;
  f.zone["a.b.s1.test"] = {{dns::kTypeAAAA, "fd00::7"}};
  Outcome r = run(config(Dialect::glibc, "search s1.test\noptions ndots:1\n"), "a.b", kInet, 1);
  EXPECT_EQ(r.result.status, Status::host_not_found);
  EXPECT_EQ(r.log, (std::vector<std::string>{"a.b A +opt"}));
}

TEST_F(LookupTest, MuslNodataStopsTheWalk) {
  f.zone["web.s1.test"] = {{dns::kTypeAAAA, "fd00::1"}};
  Outcome r = run(config(Dialect::musl, kPod), "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::no_data);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A +opt"}));
}

TEST_F(LookupTest, MuslAutopathStopsOnExists) {
  f.mode = Mode::autopath;
  f.zone["web.s1.test"] = {{dns::kTypeAAAA, "fd00::1"}};
  Outcome r = run(config(Dialect::musl, kPod), "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::no_data);
  EXPECT_EQ(r.log.size(), 1u);
}

TEST_F(LookupTest, GlibcDotsAtNdotsTriesAsIsFirst) {
  Outcome r = run(config(Dialect::glibc, "search s1.test\noptions ndots:2\n"), "www.example.com", kInet, 1);
  EXPECT_EQ(r.result.status, Status::found);
  EXPECT_EQ(r.log, (std::vector<std::string>{"www.example.com A +opt"}));
}

TEST_F(LookupTest, FormerrServerGetsClassicWalkAndIsRemembered) {
  f.mode = Mode::formerr;
  Config c = config(Dialect::glibc, kPod);
  Outcome r = run(c, "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::found);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A +opt", "web.s1.test A", "web.s2.test A"}));
  Outcome again = run(c, "web", kInet, 1);
  EXPECT_EQ(again.log, (std::vector<std::string>{"web.s1.test A", "web.s2.test A"}));
}

TEST_F(LookupTest, EchoedOptionIsNoSupport) {
  f.mode = Mode::echo;
  Outcome r = run(config(Dialect::glibc, kPod), "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::found);
  EXPECT_TRUE(r.result.fell_back);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A +opt", "web.s2.test A"}));
}

TEST_F(LookupTest, ServfailSkipsCandidateThenTryAgain) {
  f.rcode["web.s1.test"] = dns::kServFail;
  Outcome r = run(config(Dialect::glibc, kPod), "web", kInet, 1);
  EXPECT_EQ(r.result.status, Status::found);
  f.rcode["nope.s1.test"] = dns::kServFail;
  Outcome miss = run(config(Dialect::glibc, kPod), "nope", kInet, 1);
  EXPECT_EQ(miss.result.status, Status::try_again);
}

TEST_F(LookupTest, AutopathOffWordSendsNoOption) {
  f.mode = Mode::autopath;
  std::string conf = std::string(kPod) + "options k8s-autopath:off\n";
  Outcome r = run(config(Dialect::glibc, conf.c_str()), "web", kInet, 1);
  EXPECT_EQ(r.log, (std::vector<std::string>{"web.s1.test A", "web.s2.test A"}));
}

}  // namespace
}  // namespace rk8s
