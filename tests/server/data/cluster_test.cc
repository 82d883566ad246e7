// SPDX-License-Identifier: Apache-2.0
// The Kubernetes DNS schema, served from tests/fixtures/cluster.json.
#include <gtest/gtest.h>

#include "server/data/cluster_json.h"
#include "server/util/dns_text.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

TEST(KubernetesSchema, EveryRecordKind) {
  const LookupCase cases[] = {
      {"ClusterIP A", "kubernetes.default.svc.cluster.local", dns::kTypeA, dns::kNoError,
       {"kubernetes.default.svc.cluster.local. A 10.96.0.1"}},
      {"single stack has no AAAA", "kubernetes.default.svc.cluster.local", dns::kTypeAAAA,
       dns::kNoError, {}},
      {"dual stack A", "web.shop.svc.cluster.local", dns::kTypeA, dns::kNoError,
       {"web.shop.svc.cluster.local. A 10.96.1.10"}},
      {"dual stack AAAA", "web.shop.svc.cluster.local", dns::kTypeAAAA, dns::kNoError,
       {"web.shop.svc.cluster.local. AAAA fd00:10:96::110"}},
      {"SRV of a named port: weight 100 over one per cluster IP", "_http._tcp.web.shop.svc.cluster.local",
       dns::kTypeSRV, dns::kNoError,
       {"_http._tcp.web.shop.svc.cluster.local. SRV 0 50 80 web.shop.svc.cluster.local."}},
      {"a port's name has the cluster IPs", "_http._tcp.web.shop.svc.cluster.local", dns::kTypeA,
       dns::kNoError, {"_http._tcp.web.shop.svc.cluster.local. A 10.96.1.10"}},
      {"SRV at the service: every port", "web.shop.svc.cluster.local", dns::kTypeSRV,
       dns::kNoError,
       {"web.shop.svc.cluster.local. SRV 0 25 80 web.shop.svc.cluster.local.",
        "web.shop.svc.cluster.local. SRV 0 25 8080 web.shop.svc.cluster.local."}},
      {"the protocol alone is an endpoint name, not an empty non-terminal",
       "_tcp.web.shop.svc.cluster.local", dns::kTypeSRV, dns::kNxDomain, {}},
      {"endpoint of a ClusterIP service", "10-244-1-10.web.shop.svc.cluster.local", dns::kTypeA,
       dns::kNoError, {"10-244-1-10.web.shop.svc.cluster.local. A 10.244.1.10"}},
      {"SRV at an endpoint", "db-0.db.shop.svc.cluster.local", dns::kTypeSRV, dns::kNoError,
       {"db-0.db.shop.svc.cluster.local. SRV 0 100 5432 db-0.db.shop.svc.cluster.local."}},
      {"SRV protocol from the port", "_dns._udp.kube-dns.kube-system.svc.cluster.local",
       dns::kTypeSRV, dns::kNoError,
       {"_dns._udp.kube-dns.kube-system.svc.cluster.local. SRV 0 100 53 kube-dns.kube-system.svc.cluster.local."}},
      {"no SRV under the wrong protocol", "_dns._tcp.kube-dns.kube-system.svc.cluster.local",
       dns::kTypeSRV, dns::kNxDomain, {}},
      {"headless: ready endpoints only", "db.shop.svc.cluster.local", dns::kTypeA, dns::kNoError,
       {"db.shop.svc.cluster.local. A 10.244.1.5", "db.shop.svc.cluster.local. A 10.244.2.6",
        "db.shop.svc.cluster.local. A 10.244.1.9"}},
      {"endpoint hostname", "db-1.db.shop.svc.cluster.local", dns::kTypeA, dns::kNoError,
       {"db-1.db.shop.svc.cluster.local. A 10.244.2.6"}},
      {"not-ready endpoint has no name", "db-2.db.shop.svc.cluster.local", dns::kTypeA,
       dns::kNxDomain, {}},
      {"endpoint without hostname: dashed address", "10-244-1-9.db.shop.svc.cluster.local",
       dns::kTypeA, dns::kNoError, {"10-244-1-9.db.shop.svc.cluster.local. A 10.244.1.9"}},
      {"headless SRV: one per endpoint", "_postgres._tcp.db.shop.svc.cluster.local",
       dns::kTypeSRV, dns::kNoError,
       {"_postgres._tcp.db.shop.svc.cluster.local. SRV 0 33 5432 db-0.db.shop.svc.cluster.local.",
        "_postgres._tcp.db.shop.svc.cluster.local. SRV 0 33 5432 db-1.db.shop.svc.cluster.local.",
        "_postgres._tcp.db.shop.svc.cluster.local. SRV 0 33 5432 10-244-1-9.db.shop.svc.cluster.local."}},
      {"publishNotReadyAddresses: the slice says ready", "queue.shop.svc.cluster.local", dns::kTypeA,
       dns::kNoError, {"queue.shop.svc.cluster.local. A 10.244.2.20"}},
      {"ExternalName", "payments.shop.svc.cluster.local", dns::kTypeA, dns::kNoError,
       {"payments.shop.svc.cluster.local. CNAME payments.example.com.",
        "payments.example.com. A 192.0.2.50"}},
      {"ExternalName, the target's NODATA: its answer alone, as CoreDNS's",
       "payments.shop.svc.cluster.local", dns::kTypeAAAA, dns::kNoError,
       {"payments.shop.svc.cluster.local. CNAME payments.example.com."}, false, false},
      {"ExternalName out of data", "legacy.default.svc.cluster.local", dns::kTypeA,
       dns::kNoError, {"legacy.default.svc.cluster.local. CNAME legacy.example.net."}},
      {"pod A", "10-244-1-10.shop.pod.cluster.local", dns::kTypeA, dns::kNoError,
       {"10-244-1-10.shop.pod.cluster.local. A 10.244.1.10"}},
      {"pod AAAA", "fd00-10-244-1--a.shop.pod.cluster.local", dns::kTypeAAAA, dns::kNoError,
       {"fd00-10-244-1--a.shop.pod.cluster.local. AAAA fd00:10:244:1::a"}},
      {"pod in another namespace", "10-244-1-10.default.pod.cluster.local", dns::kTypeA,
       dns::kNxDomain, {}},
      {"hostname.subdomain: the slice's hostname", "w1.workers.shop.svc.cluster.local",
       dns::kTypeA, dns::kNoError, {"w1.workers.shop.svc.cluster.local. A 10.244.2.30"}},
      {"hostname.subdomain not ready", "w2.workers.shop.svc.cluster.local",
       dns::kTypeA, dns::kNxDomain, {}},
      {"PTR of a service", "10.1.96.10.in-addr.arpa", dns::kTypePTR, dns::kNoError,
       {"10.1.96.10.in-addr.arpa. PTR web.shop.svc.cluster.local."}},
      {"PTR of a v6 service",
       "0.1.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa", dns::kTypePTR,
       dns::kNoError, {"0.1.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa. PTR web.shop.svc.cluster.local."}},
      {"PTR of an endpoint", "5.1.244.10.in-addr.arpa", dns::kTypePTR, dns::kNoError,
       {"5.1.244.10.in-addr.arpa. PTR db-0.db.shop.svc.cluster.local."}},
      {"no PTR of a pod", "2.0.244.10.in-addr.arpa", dns::kTypePTR, dns::kNxDomain, {}},
      {"no empty non-terminal in a reverse zone", "244.10.in-addr.arpa", dns::kTypePTR,
       dns::kNxDomain, {}},
      {"dns-version", "dns-version.cluster.local", dns::kTypeTXT, dns::kNoError,
       {"dns-version.cluster.local. TXT \"1.1.0\""}},
      {"PTR of an unknown address", "9.9.9.10.in-addr.arpa", dns::kTypePTR, dns::kNxDomain, {}},
      {"namespace is an empty non-terminal", "shop.svc.cluster.local", dns::kTypeA,
       dns::kNoError, {}},
      {"namespace without services", "empty.svc.cluster.local", dns::kTypeA, dns::kNoError, {}},
      {"svc.domain is an empty non-terminal", "svc.cluster.local", dns::kTypeA, dns::kNoError, {}},
      {"unknown namespace", "nope.svc.cluster.local", dns::kTypeA, dns::kNxDomain, {}},
      {"unknown service", "nope.shop.svc.cluster.local", dns::kTypeA, dns::kNxDomain, {}},
      {"NS of the cluster domain", "cluster.local", dns::kTypeNS, dns::kNoError,
       {"cluster.local. NS ns.dns.cluster.local."}},
      {"the NS name has the DNS service's address", "ns.dns.cluster.local", dns::kTypeA,
       dns::kNoError, {"ns.dns.cluster.local. A 10.96.0.10"}},
      {"closed world", "www.kubernetes.io", dns::kTypeA, dns::kNxDomain, {}},
  };
  expect_lookups(fixture_store(), cases);
}

TEST(KubernetesSchema, NegativeAnswersCarryTheZoneSoa) {
  const struct {
    const char* name;
    const char* apex;
  } cases[] = {
      {"nope.shop.svc.cluster.local", "cluster.local."},
      {"shop.svc.cluster.local", "cluster.local."},
      {"9.9.9.10.in-addr.arpa", "in-addr.arpa."},
  };
  for (const auto& c : cases) {
    Resolution res = store_lookup(fixture_store(), N(c.name), dns::kTypeA);
    ASSERT_TRUE(res.soa()) << c.name;
    EXPECT_EQ(name_text(res.soa()->owner), c.apex);
    EXPECT_EQ(res.negative_ttl(), 5u);
  }
}

TEST(KubernetesSchema, BadObjectsStopLoadingWithFileAndLine) {
  const BadInput cases[] = {
      {"[]", "c.json:1: the List: expected an object with \"items\""},
      {"{\"items\": [\n{\"kind\": \"Service\", \"metadata\": {\"name\": \"a\", \"namespace\": \"n\"},\n"
       "\"spec\": {\"clusterIPs\": [\n\"10.0.0.x\"]}}]}",
       "c.json:4: Service n/a: '10.0.0.x' is not an IP address"},
      {"{\"items\": [{\"kind\": \"Service\", \"metadata\": {\"namespace\": \"n\"}}]}",
       "c.json:1: Service n/: no metadata.name"},
      {"{\"items\": [{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}}]}",
       "c.json:1: Pod p: no metadata.namespace"},
      {"{\"items\": [{\"kind\": \"Service\", \"metadata\": {\"name\": \"a\", \"namespace\": \"n\"},"
       "\"spec\": {\"ports\": [{\"port\": 70000}]}}]}",
       "c.json:1: Service n/a: a port needs a port number from 1 to 65535"},
      {"{\"items\": [{\"kind\": \"Service\", \"metadata\": {\"name\": \"a\", \"namespace\": \"n\"},"
       "\"spec\": {\"type\": \"ExternalName\", \"externalName\": \"a..b\"}}]}",
       "c.json:1: Service n/a: externalName is not a domain name"},
      {"{\"items\": [{\"kind\": \"Service\", \"metadata\": {\"name\": 5}}]}",
       "c.json:1: the List: name is number, not string"},
  };
  for (const BadInput& c : cases)
    EXPECT_EQ(load_error([&] {
                parse_cluster(JsonDoc(c.text, "c.json"), "c.json", [](const std::string&) {});
              }),
              c.error)
        << c.text;
}

TEST(KubernetesSchema, UnknownKindsAreSkippedWithOneWarningEach) {
  std::vector<std::string> warnings;
  Cluster c = parse_cluster(
      JsonDoc("{\"items\": [\n{\"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\", \"namespace\": \"n\"}},\n"
                 "{\"kind\": \"Namespace\", \"metadata\": {\"name\": \"n\"}},\n"
                 "{\"kind\": \"Secret\", \"metadata\": {\"name\": \"s\", \"namespace\": \"n\"}}]}",
                 "c.json"),
      "c.json", [&](const std::string& w) { warnings.push_back(w); });
  EXPECT_EQ(c.namespaces, std::vector<std::string>{"n"});
  EXPECT_EQ(warnings, (std::vector<std::string>{"c.json:2: skipping an item of kind 'ConfigMap'",
                                                "c.json:4: skipping an item of kind 'Secret'"}));
}

}  // namespace
}  // namespace rk8s::server::test
