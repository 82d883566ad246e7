// SPDX-License-Identifier: Apache-2.0
// The schema cut: which names under <ns>.svc.<clusterDomain> the Kubernetes
// DNS schema (and CoreDNS's reading of it) makes NXDOMAIN.
#include "server/answer/schema_cut.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

using test::N;

TEST(SchemaCut, NamesTheSchemaCannotHold) {
  const struct {
    const char* name;
    uint16_t qtype;
    bool cut;
  } cases[] = {
      // The schema's names: never cut.
      {"web.shop.svc.cluster.local", dns::kTypeA, false},                // a Service
      {"pod-0.db.shop.svc.cluster.local", dns::kTypeA, false},           // a headless endpoint
      {"example.net.shop.svc.cluster.local", dns::kTypeAAAA, false},     // two labels: could be one
      {"_http._tcp.web.shop.svc.cluster.local", dns::kTypeSRV, false},   // SRV
      {"_http._tcp.web.shop.svc.cluster.local", dns::kTypeA, false},     // CoreDNS answers A there
      {"http.tcp.web.shop.svc.cluster.local", dns::kTypeA, false},       // and without the `_`
      {"_dns._UDP.kube-dns.kube-system.svc.cluster.local", dns::kTypeSRV, false},
      {"x._sctp.web.shop.svc.cluster.local", dns::kTypeSRV, false},
      {"_http.*.web.shop.svc.cluster.local", dns::kTypeSRV, false},      // CoreDNS's old wildcards
      {"_http.any.web.shop.svc.cluster.local", dns::kTypeSRV, false},
      {"shop.svc.cluster.local", dns::kTypeA, false},                    // a namespace
      {"svc.cluster.local", dns::kTypeA, false},
      // CoreDNS 1.14.7's zonal names of a headless Service, any zone.
      {"us-west-2a.pin._zone.db.shop.svc.cluster.local", dns::kTypeA, false},
      {"corp.example.com.prefer._zone.db.shop.svc.cluster.local", dns::kTypeSRV, false},
      {"us-west-2a.PIN._Zone.db.shop.svc.cluster.local", dns::kTypeAAAA, false},
      {"pin._zone.db.shop.svc.cluster.local", dns::kTypeA, true},  // CoreDNS: port `pin`, protocol `zone`
      {"us-west-2a.stay._zone.db.shop.svc.cluster.local", dns::kTypeA, true},  // no such directive
      // External names walked through the pod's namespace: cut.
      {"api.example.net.shop.svc.cluster.local", dns::kTypeA, true},     // "example" names no protocol
      {"api.example.net.shop.svc.cluster.local", dns::kTypeAAAA, true},
      {"_http._example.net.shop.svc.cluster.local", dns::kTypeSRV, true},
      {"a.b.example.net.shop.svc.cluster.local", dns::kTypeA, true},     // four labels: nothing is
      {"_a._tcp.b.c.shop.svc.cluster.local", dns::kTypeSRV, true},
      {"API.Example.NET.Shop.SVC.Cluster.Local", dns::kTypeA, true},     // any case
      // Only for the schema's types under svc.
      {"api.example.net.shop.svc.cluster.local", dns::kTypeTXT, false},
      {"api.example.net.shop.svc.cluster.local", dns::kTypeMX, false},
      // Only under svc.<clusterDomain>.
      {"api.example.net.svc.cluster.local", dns::kTypeA, false},         // "net" could be a namespace
      {"a.api.example.net.shop.pod.cluster.local", dns::kTypeA, false},
      {"a.api.example.net.cluster.local", dns::kTypeA, false},
      {"a.api.example.net.shop.svc.other.local", dns::kTypeA, false},
      {"a.api.example.net.shop.svc.cluster.local.ec2.internal", dns::kTypeA, false},
  };
  for (const auto& c : cases)
    EXPECT_EQ(schema_nxdomain(N(c.name), N("cluster.local"), c.qtype), c.cut) << c.name << " " << c.qtype;
}

}  // namespace
}  // namespace rk8s::server
