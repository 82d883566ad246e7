// SPDX-License-Identifier: Apache-2.0
#include "server/data/zone_file.h"

#include <gtest/gtest.h>

#include "server/data/store_lookup.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

TEST(ZoneFileSyntax, FixtureRecordsReadAsWritten) {
  const LookupCase cases[] = {
      {"SOA", "example.com", dns::kTypeSOA, dns::kNoError, {"example.com. SOA ns1.example.com."}},
      {"NS", "example.com", dns::kTypeNS, dns::kNoError, {"example.com. NS ns1.example.com."}},
      {"A", "www.example.com", dns::kTypeA, dns::kNoError, {"www.example.com. A 93.184.216.34"}},
      {"owners keep the query's case", "WWW.Example.COM", dns::kTypeAAAA, dns::kNoError,
       {"WWW.Example.COM. AAAA 2606:2800:220:1:248:1893:25c8:1946"}},
      {"MX", "mail.example.com", dns::kTypeMX, dns::kNoError,
       {"mail.example.com. MX 10 mx1.example.com."}},
      {"SRV", "_sip._tcp.example.com", dns::kTypeSRV, dns::kNoError,
       {"_sip._tcp.example.com. SRV 0 5 5060 sip.example.com."}},
      {"TXT: quoted strings", "txt.example.com", dns::kTypeTXT, dns::kNoError,
       {"txt.example.com. TXT \"hello world\" \"two\" \"semi;colon\""}},
      {"the second zone", "intranet.corp.example", dns::kTypeA, dns::kNoError,
       {"intranet.corp.example. A 10.1.0.80"}},
  };
  expect_lookups(fixture_store(), cases);
}

struct TtlCase {
  const char* name;
  uint16_t type;
  uint32_t ttl;
};

TEST(ZoneFileTtl, ExplicitThenDollarTtlInEitherOrder) {
  const TtlCase cases[] = {
      {"www.example.com", dns::kTypeA, 120},      // IN 120 A
      {"www.example.com", dns::kTypeAAAA, 120},   // 120 IN AAAA
      {"v4only.example.com", dns::kTypeA, 300},   // $TTL
      {"example.com", dns::kTypeSOA, 3600},
      {"ns.corp.example", dns::kTypeA, 600},
  };
  for (const TtlCase& c : cases) {
    Resolution res = store_lookup(fixture_store(), N(c.name), c.type);
    ASSERT_EQ(res.records.size(), 1u) << c.name;
    EXPECT_EQ(res.records[0].rr->ttl, c.ttl) << c.name;
  }
}

TEST(ZoneFileTtl, SoaMinimumInUnitsAndNegativeTtl) {
  Resolution res = store_lookup(fixture_store(), N("nope.example.com"), dns::kTypeA);
  ASSERT_TRUE(res.soa());
  EXPECT_EQ(res.negative_ttl(), 60u);
}

TEST(ZoneFileErrors, NameFileAndLine) {
  const BadInput cases[] = {
      {"a.example. 60 A 1.2.3.4\n", "z:1: no SOA record"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\n@ 60 SOA a b 1 2 3 4 5\n",
       "z:3: a second SOA record: one file is one zone"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nwww 60 A 1.2.3\n", "z:3: bad address '1.2.3'"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nwww 60 A\n", "z:3: A takes 1 rdata fields, got 0"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nwww 60 HINFO a b\n",
       "z:3: unsupported type or class 'HINFO'"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nwww 60 CH A 1.2.3.4\n",
       "z:3: unsupported type or class 'CH'"},
      {"$ORIGIN x.\n@ 60 SOA (a b\n1 2 3 4 5\n", "z:2: '(' is never closed"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5 )\n", "z:2: ')' without '('"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nother. 60 A 1.2.3.4\n", "z:3: other. is outside the zone x."},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nw 60 CNAME a\nw 60 A 1.2.3.4\n",
       "z:4: CNAME and other data at w.x."},
      {"$ORIGIN x.\n@ SOA a b 1 2 3 4 5\n", "z:2: no TTL and no $TTL before this record"},
      {"$INCLUDE other\n", "z:1: $INCLUDE is not supported"},
      {"$TTL soon\n", "z:1: bad $TTL 'soon'"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\n 60 A 1.2.3.4\n\"q\" 60 A 1.2.3.4\n",
       "z:4: bad domain name 'q'"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nm 60 MX 70000 a\n", "z:3: bad number '70000'"},
      {"$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nt 60 TXT \"open\n", "z:3: unterminated quoted string"},
      {" 60 A 1.2.3.4\n", "z:1: no owner name before this record"},
      {"a..b 60 A 1.2.3.4\n", "z:1: bad domain name 'a..b'"},
  };
  for (const BadInput& c : cases) {
    Store store;
    EXPECT_EQ(load_error([&] { load_zone(c.text, "z", store); }), c.error) << c.text;
    EXPECT_EQ(store.node_count(), 0u) << "half loaded: " << c.text;
  }
}

TEST(ZoneFileErrors, SameZoneTwice) {
  Store store;
  const char* zone = "$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\n";
  load_zone(zone, "one", store);
  EXPECT_EQ(load_error([&] { load_zone(zone, "two", store); }),
            "two:2: zone x. is loaded twice");
}

TEST(ZoneFileSyntax, OwnerCarriesOverAndRelativeNamesUseOrigin) {
  Store store;
  load_zone("$ORIGIN x.\n$TTL 1h\n@ SOA a b 1 2 3 4 5\n  NS ns\n$ORIGIN sub.x.\nhost A 1.2.3.4\n"
            "  AAAA ::1\n",
            "z", store);
  EXPECT_EQ(records_text(store_lookup(store, N("x"), dns::kTypeNS).records), Strings{"x. NS ns.x."});
  EXPECT_EQ(records_text(store_lookup(store, N("host.sub.x"), dns::kTypeAAAA).records),
            Strings{"host.sub.x. AAAA ::1"});
  EXPECT_EQ(store_lookup(store, N("host.sub.x"), dns::kTypeA).records.at(0).rr->ttl, 3600u);
}

}  // namespace
}  // namespace rk8s::server::test
