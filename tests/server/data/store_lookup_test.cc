// SPDX-License-Identifier: Apache-2.0
// Lookup rules on the zone fixtures: chains, wildcards, negative answers.
#include <gtest/gtest.h>

#include "server/data/store_lookup.h"
#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

using test::N;
using test::records_text;
using Strings = std::vector<std::string>;

struct LookupCase {
  const char* rule;
  const char* name;
  uint16_t type;
  uint8_t rcode;
  bool has_data;
  bool soa;
  Strings records;
};

TEST(Lookup, ChainsWildcardsAndNegatives) {
  const LookupCase cases[] = {
      {"CNAME chain followed", "chain.example.com", dns::kTypeA, dns::kNoError, true, false,
       {"chain.example.com. CNAME alias.example.com.", "alias.example.com. CNAME www.example.com.",
        "www.example.com. A 93.184.216.34"}},
      {"CNAME asked for itself", "alias.example.com", dns::kTypeCNAME, dns::kNoError, true, false,
       {"alias.example.com. CNAME www.example.com."}},
      {"chain to NODATA", "alias.example.com", dns::kTypeMX, dns::kNoError, false, true,
       {"alias.example.com. CNAME www.example.com."}},
      {"CNAME loop", "loop1.example.com", dns::kTypeA, dns::kServFail, false, false, {}},
      {"wildcard synthesizes the query name", "anything.wild.example.com", dns::kTypeA,
       dns::kNoError, true, false, {"anything.wild.example.com. A 192.0.2.77"}},
      {"wildcard several labels down", "a.b.wild.example.com", dns::kTypeAAAA, dns::kNoError,
       true, false, {"a.b.wild.example.com. AAAA 2001:db8::77"}},
      {"wildcard NODATA", "x.wild.example.com", dns::kTypeMX, dns::kNoError, false, true, {}},
      {"no wildcard above the closest encloser", "x.www.example.com", dns::kTypeA,
       dns::kNxDomain, false, true, {}},
      {"search-domain wildcard", "google.com.corp.example", dns::kTypeA, dns::kNoError, true,
       false, {"google.com.corp.example. A 10.1.1.1"}},
      {"A-only name has no AAAA", "v4only.example.com", dns::kTypeAAAA, dns::kNoError, false,
       true, {}},
      {"AAAA-only name has no A", "v6only.example.com", dns::kTypeA, dns::kNoError, false, true,
       {}},
      {"empty non-terminal", "empty.nonterminal.example.com", dns::kTypeA, dns::kNoError, false,
       true, {}},
      {"NXDOMAIN", "nope.example.com", dns::kTypeA, dns::kNxDomain, false, true, {}},
      {"outside every zone", "example.org", dns::kTypeA, dns::kNxDomain, false, false, {}},
  };
  for (const LookupCase& c : cases) {
    Resolution res = store_lookup(test::fixture_store(), N(c.name), c.type);
    EXPECT_EQ(res.rcode, c.rcode) << c.rule;
    EXPECT_EQ(res.has_data, c.has_data) << c.rule;
    EXPECT_EQ(bool(res.soa()), c.soa) << c.rule;
    EXPECT_EQ(records_text(res.records), c.records) << c.rule;
  }
}

TEST(Lookup, AnyReturnsEveryRecordAtTheName) {
  Resolution res = store_lookup(test::fixture_store(), N("www.example.com"), dns::kTypeANY);
  EXPECT_EQ(records_text(res.records),
            (Strings{"www.example.com. A 93.184.216.34",
                     "www.example.com. AAAA 2606:2800:220:1:248:1893:25c8:1946"}));
}

}  // namespace
}  // namespace rk8s::server
