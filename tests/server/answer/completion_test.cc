// SPDX-License-Identifier: Apache-2.0
// CNAME completion (server/answer/completion.h): an upstream's bare CNAME
// followed through the router, link by link.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "server/answer/completion.h"
#include "server/util/dns_text.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

// An upstream as cluster DNS is: it answers from its own records, and a
// CNAME bare, leaving the target to whoever resolves for the client.
class Upstream : public Source {
 public:
  void cname(const char* owner, const char* target, uint32_t ttl = 30) {
    Rr rr{dns::kTypeCNAME, ttl, {}};
    put_name(rr.rdata, N(target));
    cnames_[name_key(N(owner))] = rr;
  }
  void a(const char* owner, uint32_t ttl = 300) {
    addresses_[name_key(N(owner))] = Rr{dns::kTypeA, ttl, {192, 0, 2, 7}};
  }
  int asked = 0;

  void resolve(const Ask& ask, Resolved done) override {
    asked++;
    Resolution res;
    res.recursive = true;
    std::string key = name_key(ask.name);
    if (auto c = cnames_.find(key); c != cnames_.end()) {
      res.records.push_back(RrRef{ask.name, &c->second});
    } else if (auto a = addresses_.find(key); a != addresses_.end()) {
      res.records.push_back(RrRef{ask.name, &a->second});
      res.has_data = true;
    } else {
      res.rcode = dns::kNxDomain;
    }
    done(&res);
  }

 private:
  std::map<std::string, Rr> cnames_, addresses_;
};

struct Node {
  Upstream cluster, external;
  Router router;
  Node() {
    router.add(N("cluster.local"), &cluster);
    router.set_fallback(&external);
  }
  // The answer to NAME A: "RCODE" then "OWNER TYPE TTL" per record.
  std::vector<std::string> ask(const char* name) {
    std::vector<std::string> out;
    resolve_routed(router, Ask{N(name), dns::kTypeA}, [&](const Resolution* res) {
      out.push_back(dns::rcode_name(res->rcode));
      for (const RrRef& r : res->records)
        out.push_back(name_text(r.owner) + " " + dns::type_name(r.rr->type) + " " +
                      std::to_string(res->ttl_of(*r.rr)));
    });
    return out;
  }
};

TEST(Completion, TheTargetsZonePicksItsUpstream) {
  Node node;
  node.cluster.cname("payments.shop.svc.cluster.local", "payments.example.com");
  node.external.a("payments.example.com");
  EXPECT_EQ(node.ask("payments.shop.svc.cluster.local"),
            (std::vector<std::string>{"NOERROR", "payments.shop.svc.cluster.local. CNAME 30",
                                      "payments.example.com. A 300"}));
  EXPECT_EQ(node.cluster.asked, 1);
  EXPECT_EQ(node.external.asked, 1);
}

TEST(Completion, ThroughBothZonesAndBack) {
  Node node;
  node.cluster.cname("a.cluster.local", "b.example.com", 60);
  node.external.cname("b.example.com", "c.cluster.local", 10);
  node.cluster.a("c.cluster.local", 5);
  EXPECT_EQ(node.ask("a.cluster.local"),
            (std::vector<std::string>{"NOERROR", "a.cluster.local. CNAME 60", "b.example.com. CNAME 10",
                                      "c.cluster.local. A 5"}));
}

TEST(Completion, ATargetThatDoesNotExistIsItsNxdomain) {
  Node node;
  node.cluster.cname("legacy.default.svc.cluster.local", "legacy.example.net");
  EXPECT_EQ(node.ask("legacy.default.svc.cluster.local"),
            (std::vector<std::string>{"NXDOMAIN", "legacy.default.svc.cluster.local. CNAME 30"}));
}

TEST(Completion, ALoopIsServfail) {
  Node node;
  node.cluster.cname("a.cluster.local", "b.example.com");
  node.external.cname("b.example.com", "a.cluster.local");
  EXPECT_EQ(node.ask("a.cluster.local"), (std::vector<std::string>{"SERVFAIL"}));
}

// Links alternate between the zones, each upstream leaving the next bare.
void chain(Node& node, int links) {
  for (int i = 0; i < links; i++) {
    std::string from = "l" + std::to_string(i) + (i % 2 ? ".example.com" : ".cluster.local");
    std::string to = "l" + std::to_string(i + 1) + (i % 2 ? ".cluster.local" : ".example.com");
    (i % 2 ? node.external : node.cluster).cname(from.c_str(), to.c_str());
  }
  std::string last = "l" + std::to_string(links) + (links % 2 ? ".example.com" : ".cluster.local");
  (links % 2 ? node.external : node.cluster).a(last.c_str());
}

TEST(Completion, EightLinksAtMost) {
  Node eight;
  chain(eight, kMaxLinks);
  std::vector<std::string> out = eight.ask("l0.cluster.local");
  ASSERT_EQ(out.size(), size_t(kMaxLinks + 2));
  EXPECT_EQ(out.front(), "NOERROR");
  EXPECT_EQ(out.back(), "l8.cluster.local. A 300");

  Node nine;
  chain(nine, kMaxLinks + 1);
  EXPECT_EQ(nine.ask("l0.cluster.local"), (std::vector<std::string>{"SERVFAIL"}));
}

TEST(Completion, AnAnswerAlreadyWholeIsLeftAlone) {
  Node node;
  node.cluster.a("web.shop.svc.cluster.local");
  EXPECT_EQ(node.ask("web.shop.svc.cluster.local"),
            (std::vector<std::string>{"NOERROR", "web.shop.svc.cluster.local. A 300"}));
  EXPECT_EQ(node.external.asked, 0);
}

}  // namespace
}  // namespace rk8s::server::test
