// SPDX-License-Identifier: Apache-2.0
// The test faults' flags (server/faults/flags.h): taken out of the command
// line with their values, the rest left in order for config/flags.h.
#include "server/faults/flags.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

TEST(TestFaultFlags, TakenOutTheRestLeftInOrder) {
  Strings args = {"--config", "c.yaml",      "--autopath", "echo",           "--delay-ms", "7",
                  "--tcp-nodelay", "off",    "--query-log", "q.log",         "--rcode", "x.test=SERVFAIL",
                  "--drop", "y.test/AAAA", "--help"};
  TestFaults t = take_test_flags(args);
  EXPECT_EQ(args, (Strings{"--config", "c.yaml", "--tcp-nodelay", "off", "--help"}));
  ASSERT_TRUE(t.edns);
  EXPECT_EQ(*t.edns, EdnsMode::echo);
  EXPECT_EQ(t.delay_ms, 7u);
  EXPECT_EQ(t.query_log, "q.log");
  ASSERT_TRUE(t.names.find(N("x.test"), dns::kTypeA));
  EXPECT_EQ(t.names.find(N("x.test"), dns::kTypeA)->rcode, dns::kServFail);
  ASSERT_TRUE(t.names.find(N("y.test"), dns::kTypeAAAA));
  EXPECT_TRUE(t.names.find(N("y.test"), dns::kTypeAAAA)->drop);
  EXPECT_FALSE(t.names.find(N("y.test"), dns::kTypeA));
}

TEST(TestFaultFlags, NoneAskedLeavesEverything) {
  Strings args = {"--listen", "127.0.0.1:53", "--autopath", "off", "--zone", "--rcode"};
  Strings before = args;
  TestFaults t = take_test_flags(args);
  EXPECT_EQ(args, before) << "--autopath off is the server's; --rcode here is --zone's value";
  EXPECT_FALSE(t.edns);
  EXPECT_EQ(t.delay_ms, 0u);
  EXPECT_TRUE(t.query_log.empty());
  EXPECT_TRUE(t.names.empty());
  args = {"--autopath", "formerr"};
  EXPECT_EQ(take_test_flags(args).edns, EdnsMode::formerr);
  EXPECT_TRUE(args.empty());
}

TEST(TestFaultFlags, Errors) {
  const struct {
    Strings args;
    const char* error;
  } cases[] = {
      {{"--rcode", "x=BOGUS"}, "--rcode: bad value 'x=BOGUS'"},
      {{"--rcode", "x=BADVERS"}, "--rcode: bad value 'x=BADVERS'"},
      {{"--rcode", "x"}, "--rcode: bad value 'x'"},
      {{"--drop", "x/NOSUCHTYPE"}, "--drop: bad value 'x/NOSUCHTYPE'"},
      {{"--delay-ms", "-1"}, "--delay-ms: bad value '-1'"},
      {{"--delay-ms", "600001"}, "--delay-ms: bad value '600001'"},
      {{"--listen", "127.0.0.1:53", "--query-log"}, "--query-log: missing value (see --help)"},
  };
  for (const auto& c : cases) {
    Strings args = c.args;
    std::string error = "(no error)";
    try {
      take_test_flags(args);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
    EXPECT_EQ(error, c.error);
  }
}

}  // namespace
}  // namespace rk8s::server::test
