// SPDX-License-Identifier: Apache-2.0
// The name faults in a source's way (server/faults/faulty_source.h): a
// fault's name and type answer its rcode with no records, or nothing; the
// rest is the source's.
#include "server/faults/faulty_source.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

// What the fixtures' closed world, with `faults`, says of NAME TYPE:
// "dropped", or the rcode and the count of answers.
std::string asked(const NameFaults& faults, const char* name, uint16_t type) {
  FixtureWorld w(faults);
  std::string out = "(no call)";
  w.world.resolve(Ask{N(name), type}, [&](const Resolution* res) {
    out = !res ? "dropped" : rcode_to_text(res->rcode) + " " + std::to_string(res->records.size());
  });
  return out;
}

TEST(FaultySource, FaultsAtTheirNamesTheRestAsTheSourceSays) {
  NameFaults faults;
  ASSERT_TRUE(faults.add_rcode("web.shop.svc.cluster.local=SERVFAIL"));
  ASSERT_TRUE(faults.add_rcode("www.example.com/AAAA=REFUSED"));
  ASSERT_TRUE(faults.add_drop("WWW.example.com/A"));
  ASSERT_TRUE(faults.add_rcode("nosuch.example.com=NOERROR"));
  const struct {
    const char* name;
    uint16_t type;
    const char* want;
  } cases[] = {
      {"web.shop.svc.cluster.local", dns::kTypeA, "SERVFAIL 0"},
      {"web.shop.svc.cluster.local", dns::kTypeAAAA, "SERVFAIL 0"},
      {"www.example.com", dns::kTypeAAAA, "REFUSED 0"},
      {"www.example.com", dns::kTypeA, "dropped"},
      {"www.example.com", dns::kTypeMX, "NOERROR 0"},
      {"nosuch.example.com", dns::kTypeA, "NOERROR 0"},
      {"kubernetes.default.svc.cluster.local", dns::kTypeA, "NOERROR 1"},
  };
  for (const auto& c : cases) EXPECT_EQ(asked(faults, c.name, c.type), c.want) << c.name << " " << c.type;
  EXPECT_EQ(asked(NameFaults{}, "nosuch.example.com", dns::kTypeA), "NXDOMAIN 0");
}

}  // namespace
}  // namespace rk8s::server::test
