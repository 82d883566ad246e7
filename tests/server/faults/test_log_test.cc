// SPDX-License-Identifier: Apache-2.0
// --query-log (server/faults/test_log.h): every query's line, untimed,
// appended to the file.
#include "server/faults/test_log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "server/process/query_log.h"
#include "server/settings/address.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

TEST(TestLog, EveryQuerysLineAppended) {
  std::string path = testing::TempDir() + "test_log_test.log";
  { std::ofstream(path) << "before\n"; }
  Client from{};
  IpAddr a;
  ASSERT_TRUE(parse_ip("127.0.0.1", a));
  ip_to_sockaddr(a, 5353, &from.addr);
  QueryInfo ok;
  ok.has_question = true;
  ok.qname = N("www.example.com");
  ok.qtype = dns::kTypeA;
  QueryInfo dropped = ok;
  dropped.dropped = true;
  {
    TestLog log(path);
    log.write(from, ok);
    log.write(from, dropped);
  }
  Strings lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(lines, (Strings{"before", "127.0.0.1:5353 www.example.com. A opt=no NOERROR",
                            "127.0.0.1:5353 www.example.com. A opt=no dropped"}));
  EXPECT_EQ(lines[1], query_line(from.addr, ok));
}

TEST(TestLog, AFileThatCannotBeOpened) {
  std::string bad = testing::TempDir() + "no/such/dir/q.log";
  EXPECT_THROW(TestLog{bad}, std::runtime_error);
}

}  // namespace
}  // namespace rk8s::server::test
