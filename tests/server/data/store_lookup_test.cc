// SPDX-License-Identifier: Apache-2.0
// Lookup rules (server/data/store_lookup.h) on the zone fixtures: chains,
// wildcards, negative answers.
#include <gtest/gtest.h>

#include "server/data/store_lookup.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

TEST(Lookup, ChainsWildcardsAndNegatives) {
  const LookupCase cases[] = {
      {"CNAME chain followed", "chain.example.com", dns::kTypeA, dns::kNoError,
       {"chain.example.com. CNAME alias.example.com.", "alias.example.com. CNAME www.example.com.",
        "www.example.com. A 93.184.216.34"}, true, false},
      {"CNAME asked for itself", "alias.example.com", dns::kTypeCNAME, dns::kNoError,
       {"alias.example.com. CNAME www.example.com."}, true, false},
      {"chain to NODATA", "alias.example.com", dns::kTypeMX, dns::kNoError,
       {"alias.example.com. CNAME www.example.com."}, false, true},
      {"CNAME loop", "loop1.example.com", dns::kTypeA, dns::kServFail, {}, false, false},
      {"wildcard synthesizes the query name", "anything.wild.example.com", dns::kTypeA,
       dns::kNoError, {"anything.wild.example.com. A 192.0.2.77"}, true, false},
      {"wildcard several labels down", "a.b.wild.example.com", dns::kTypeAAAA, dns::kNoError,
       {"a.b.wild.example.com. AAAA 2001:db8::77"}, true, false},
      {"wildcard NODATA", "x.wild.example.com", dns::kTypeMX, dns::kNoError, {}, false, true},
      {"no wildcard above the closest encloser", "x.www.example.com", dns::kTypeA,
       dns::kNxDomain, {}, false, true},
      {"search-domain wildcard", "google.com.corp.example", dns::kTypeA, dns::kNoError,
       {"google.com.corp.example. A 10.1.1.1"}, true, false},
      {"A-only name has no AAAA", "v4only.example.com", dns::kTypeAAAA, dns::kNoError, {}, false,
       true},
      {"AAAA-only name has no A", "v6only.example.com", dns::kTypeA, dns::kNoError, {}, false,
       true},
      {"empty non-terminal", "empty.nonterminal.example.com", dns::kTypeA, dns::kNoError, {},
       false, true},
      {"NXDOMAIN", "nope.example.com", dns::kTypeA, dns::kNxDomain, {}, false, true},
      {"outside every zone", "example.org", dns::kTypeA, dns::kNxDomain, {}, false, false},
  };
  expect_lookups(fixture_store(), cases);
}

TEST(Lookup, AnyReturnsEveryRecordAtTheName) {
  Resolution res = store_lookup(fixture_store(), N("www.example.com"), dns::kTypeANY);
  EXPECT_EQ(records_text(res.records),
            (Strings{"www.example.com. A 93.184.216.34",
                     "www.example.com. AAAA 2606:2800:220:1:248:1893:25c8:1946"}));
}

}  // namespace
}  // namespace rk8s::server::test
