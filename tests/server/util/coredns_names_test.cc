// SPDX-License-Identifier: Apache-2.0
// Which NXDOMAINs of CoreDNS's kubernetes plugin hold for the names below
// them (server/util/coredns_names.h), read off plugin/kubernetes/parse.go.
#include "server/util/coredns_names.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

using test::N;

TEST(CorednsNames, NxdomainHoldsBelowDownToTheService) {
  const struct {
    const char* name;
    bool holds;
  } cases[] = {
      {"svc.cluster.local", true},
      {"pod.cluster.local", true},
      {"prod.svc.cluster.local", true},                // a namespace: nothing below it exists
      {"web.prod.svc.cluster.local", true},            // a Service
      {"10-0-0-1.prod.pod.cluster.local", true},       // a pod
      {"example.cluster.local", true},                 // neither svc nor pod: all below NXDOMAIN
      {"a.b.c.d.example.cluster.local", true},
      {"_tcp.web.prod.svc.cluster.local", false},      // endpoint `_tcp`; `_http._tcp` below it
      {"_zone.db.prod.svc.cluster.local", false},      // zonal names below it
      {"pin._zone.db.prod.svc.cluster.local", false},
      {"east.web.prod.svc.cluster.local", false},      // a multicluster zone's `endpoint.cluster`
      {"x.10-0-0-1.prod.pod.cluster.local", false},
      {"_TCP.Web.Prod.SVC.Cluster.Local", false},      // any case
      {"cluster.local", false},                        // the domain itself
      {"web.prod.svc.other.local", false},             // outside it
      {"com.ec2.internal", false},
  };
  for (const auto& c : cases) EXPECT_EQ(nxdomain_holds_below(N(c.name), N("cluster.local")), c.holds) << c.name;
}

}  // namespace
}  // namespace rk8s::server
