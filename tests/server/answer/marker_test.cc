// SPDX-License-Identifier: Apache-2.0
// The marker path (server/answer/marker.h): marker names read, the pod's
// search list, and the walk's answers over the fixtures' closed world.
#include "server/answer/marker.h"

#include <gtest/gtest.h>

#include "server/util/dns_text.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

using Strings = std::vector<std::string>;

MarkerConfig config(Strings host_search = {}) {
  MarkerConfig c;
  c.marker = N("ap.k8s.io");
  c.cluster_domain = N("cluster.local");
  for (const std::string& d : host_search) c.host_search.push_back(N(d.c_str()));
  return c;
}

Name zone() {
  Name z;
  marker_zone(config(), z);
  return z;
}

TEST(MarkerName, BaseAndNamespace) {
  Name base, ns;
  ASSERT_TRUE(parse_marker_name(zone(), N("web.search.shop.cluster.local.ap.k8s.io"), base, ns));
  EXPECT_EQ(name_text(base), "web.");
  EXPECT_EQ(name_text(ns), "shop.");
  ASSERT_TRUE(parse_marker_name(zone(), N("a.b.c.SEARCH.my-ns2.Cluster.Local.AP.k8s.io"), base, ns));
  EXPECT_EQ(name_text(base), "a.b.c.");
  EXPECT_EQ(name_text(ns), "my-ns2.");
}

TEST(MarkerName, AnythingElseIsNone) {
  Name base, ns;
  for (const char* name : {
           "search.shop.cluster.local.ap.k8s.io",           // no base
           "shop.cluster.local.ap.k8s.io",                  // no "search"
           "web.find.shop.cluster.local.ap.k8s.io",         // another word
           "web.search.-shop.cluster.local.ap.k8s.io",      // not an RFC 1123 label
           "web.search.sh_op.cluster.local.ap.k8s.io",
           "web.search.shop.other.local.ap.k8s.io",         // another cluster domain
           "web.search.shop.cluster.local.ap.k8s.io.evil",  // not under the zone
           "cluster.local.ap.k8s.io",
           // a marker name inside another: its last candidate would be a marker name
           "web.search.a.cluster.local.ap.k8s.io.search.b.cluster.local.ap.k8s.io",
       })
    EXPECT_FALSE(parse_marker_name(zone(), N(name), base, ns)) << name;
}

TEST(MarkerSearch, KubeletsClusterFirstListThenTheNameAsTyped) {
  autopath::QueryOption o;
  marker_search(config({"corp.example", "svc.cluster.local", "ec2.internal", "corp.example"}), N("shop"), o);
  Strings got;
  for (size_t i = 0; i < o.count; i++) got.push_back(name_text(o.suffix[i]));
  EXPECT_EQ(got, (Strings{"shop.svc.cluster.local.", "svc.cluster.local.", "cluster.local.",
                          "corp.example.", "ec2.internal.", "."}));
}

// A query answered through a router holding the fixtures and the marker.
struct Marker {
  FixtureWorld world;
  MarkerConfig conf = config({"corp.example"});
  MarkerSource source{conf, zone(), world.router};
  Marker() { world.router.add(zone(), &source); }

  Resolution resolve(const char* name, uint16_t type, std::vector<std::string>* records = nullptr) {
    Resolution out;
    bool called = false;
    resolve_routed(world.router, Ask{N(name), type}, [&](const Resolution* r) {
      called = true;
      if (!r) return;
      out = *r;
      if (records) *records = records_text(out.records);
    });
    EXPECT_TRUE(called);
    return out;
  }
};

TEST(MarkerSource, AMatchIsTheMarkerNameAliasedToTheCandidate) {
  Marker m;
  m.conf.host_search.clear();  // corp.example's wildcard would match first
  Strings records;
  Resolution r = m.resolve("web.search.shop.cluster.local.ap.k8s.io", dns::kTypeA, &records);
  EXPECT_EQ(r.rcode, dns::kNoError);
  EXPECT_TRUE(r.has_data);
  EXPECT_EQ(records, (Strings{"web.search.shop.cluster.local.ap.k8s.io. CNAME web.shop.svc.cluster.local.",
                              "web.shop.svc.cluster.local. A 10.96.1.10"}));
  r = m.resolve("www.example.com.search.shop.cluster.local.ap.k8s.io", dns::kTypeAAAA, &records);
  EXPECT_EQ(records, (Strings{"www.example.com.search.shop.cluster.local.ap.k8s.io. CNAME www.example.com.",
                              "www.example.com. AAAA 2606:2800:220:1:248:1893:25c8:1946"}));
  // Its TTL: the least of what the answer was made of.
  EXPECT_GT(r.records[0].rr->ttl, 0u);
  EXPECT_LE(r.records[0].rr->ttl, r.records[1].rr->ttl);
}

TEST(MarkerSource, AServicesCnameChainFollowsTheAlias) {
  Marker m;
  Strings records;
  m.resolve("payments.search.shop.cluster.local.ap.k8s.io", dns::kTypeA, &records);
  ASSERT_GE(records.size(), 2u);
  EXPECT_EQ(records[0], "payments.search.shop.cluster.local.ap.k8s.io. CNAME payments.shop.svc.cluster.local.");
  EXPECT_EQ(records[1], "payments.shop.svc.cluster.local. CNAME payments.example.com.");
}

TEST(MarkerSource, NodataWhereTheNameFirstExists) {
  Marker m;
  m.conf.host_search.clear();
  Resolution r = m.resolve("mail.example.com.search.shop.cluster.local.ap.k8s.io", dns::kTypeA);
  EXPECT_EQ(r.rcode, dns::kNoError);
  EXPECT_TRUE(r.records.empty());
  ASSERT_TRUE(r.soa());
  EXPECT_EQ(name_text(r.soa()->owner), "cluster.local.ap.k8s.io.");
  EXPECT_GT(r.negative_ttl(), 0u);
}

TEST(MarkerSource, NothingFoundIsNxdomainSoTheClientWalksOn) {
  Marker m;
  m.conf.host_search.clear();
  // Found nowhere; a name under the zone that is no marker name.
  for (const char* name : {"nosuch.search.shop.cluster.local.ap.k8s.io",
                           "web.search.Not_A_Label.cluster.local.ap.k8s.io"}) {
    Resolution r = m.resolve(name, dns::kTypeA);
    EXPECT_EQ(r.rcode, dns::kNxDomain) << name;
    EXPECT_TRUE(r.records.empty()) << name;
    ASSERT_TRUE(r.soa()) << name;
    EXPECT_EQ(name_text(r.soa()->owner), "cluster.local.ap.k8s.io.") << name;
    EXPECT_GT(r.negative_ttl(), 0u) << name;
  }
}

TEST(MarkerSource, AFailureIsNxdomainKeptNowhere) {
  Marker m;
  ASSERT_TRUE(m.world.faults->add_rcode("web.shop.svc.cluster.local=SERVFAIL"));
  Resolution r = m.resolve("web.search.shop.cluster.local.ap.k8s.io", dns::kTypeA);
  EXPECT_EQ(r.rcode, dns::kNxDomain);
  EXPECT_EQ(r.negative_ttl(), 0u);
  EXPECT_EQ(r.reuse.kept, 0u);
}

TEST(MarkerSource, TheHostSearchDomainsComeAfterTheClusters) {
  Marker m;
  Strings records;
  // Every name exists in corp.example (a wildcard), none named www in the cluster.
  Resolution r = m.resolve("www.search.shop.cluster.local.ap.k8s.io", dns::kTypeA, &records);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records[0], "www.search.shop.cluster.local.ap.k8s.io. CNAME www.corp.example.");
}

}  // namespace
}  // namespace rk8s::server::test
