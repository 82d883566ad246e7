// SPDX-License-Identifier: Apache-2.0
// The query log (server/process/query_log.h): a query's line, and the
// production log's lines by level with the time in front and the seconds
// behind, in a file.
#include "server/process/query_log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "server/settings/address.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

std::string temp_path(const std::string& name) {
  std::string path = testing::TempDir() + "query_log_test_" + name;
  std::remove(path.c_str());
  return path;
}

Strings file_lines(const std::string& path) {
  Strings out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

sockaddr_storage client(const char* ip, uint16_t port) {
  IpAddr a;
  EXPECT_TRUE(parse_ip(ip, a));
  sockaddr_storage ss{};
  ip_to_sockaddr(a, port, &ss);
  return ss;
}

QueryInfo asked(const char* name, uint16_t type, uint8_t rcode) {
  QueryInfo info;
  info.has_question = true;
  info.qname = N(name);
  info.qtype = type;
  info.rcode = rcode;
  return info;
}

// A reply's header: `answers` in its answer section.
std::vector<uint8_t> reply_with(uint16_t answers) {
  std::vector<uint8_t> r(12);
  r[7] = uint8_t(answers);
  return r;
}

struct LineCase {
  const char* rule;
  sockaddr_storage client;
  QueryInfo info;
  const char* line;
};

TEST(QueryLog, AQuerysLine) {
  QueryInfo dropped = asked("gone.example.com", dns::kTypeAAAA, 0);
  dropped.dropped = true;
  QueryInfo walked = asked("web.shop.svc.cluster.local", dns::kTypeA, dns::kNoError);
  walked.has_option = true;
  walked.autopath = autopath::ReplyOption{0, autopath::kMatched, 1};
  walked.walked = 2;
  QueryInfo unreadable;
  unreadable.rcode = dns::kFormErr;
  const LineCase cases[] = {
      {"plain", client("127.0.0.1", 5353), asked("www.example.com", dns::kTypeA, dns::kNoError),
       "127.0.0.1:5353 www.example.com. A opt=no NOERROR"},
      {"NXDOMAIN", client("10.244.1.7", 37400), asked("nope.example.com", dns::kTypeMX, dns::kNxDomain),
       "10.244.1.7:37400 nope.example.com. MX opt=no NXDOMAIN"},
      {"dropped", client("127.0.0.1", 1), dropped, "127.0.0.1:1 gone.example.com. AAAA opt=no dropped"},
      {"autopath", client("fd00::1", 53), walked,
       "[fd00::1]:53 web.shop.svc.cluster.local. A opt=yes NOERROR autopath=MATCHED index=1 walked=2"},
      {"no question", client("127.0.0.1", 2), unreadable, "127.0.0.1:2 - TYPE0 opt=no FORMERR"},
  };
  for (const LineCase& c : cases) EXPECT_EQ(query_line(c.client, c.info), c.line) << c.rule;
}

// logLevel: Normal writes nothing, Debug denials and errors, Trace all;
// each line timed.
TEST(QueryLog, TheProductionLogByLevelAndTimed) {
  const std::string path = temp_path("production.log");
  const sockaddr_storage from = client("10.0.0.5", 40000);
  QueryInfo dropped = asked("gone.test", dns::kTypeA, 0);
  dropped.dropped = true;
  auto write_all = [&](QueryLog& log) {
    log.write(from, asked("answer.test", dns::kTypeA, dns::kNoError), reply_with(1), 0.000412);
    log.write(from, asked("nodata.test", dns::kTypeA, dns::kNoError), reply_with(0), 0.000412);
    log.write(from, asked("nx.test", dns::kTypeA, dns::kNxDomain), reply_with(0), 0.000412);
    log.write(from, asked("fail.test", dns::kTypeA, dns::kServFail), reply_with(0), 0.000412);
    log.write(from, dropped, {}, 0.000412);
  };
  QueryLog log;
  write_all(log);  // off until configured
  log.configure(LogLevel::normal, path);
  write_all(log);
  log.configure(LogLevel::debug, path);
  write_all(log);
  log.configure(LogLevel::trace, path);
  write_all(log);

  Strings names;
  const std::regex timed(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z 10\.0\.0\.5:40000 (\S+) A opt=no \S+ 0\.000412)");
  for (const std::string& line : file_lines(path)) {
    std::smatch m;
    EXPECT_TRUE(std::regex_match(line, m, timed)) << line;
    names.push_back(m.size() > 1 ? m[1].str() : line);
  }
  EXPECT_EQ(names, (Strings{"nodata.test.", "nx.test.", "fail.test.", "gone.test.",  // Debug
                            "answer.test.", "nodata.test.", "nx.test.", "fail.test.", "gone.test."}));
}

TEST(QueryLog, AFileThatCannotBeOpenedLeavesTheLogAsItWas) {
  const std::string path = temp_path("kept.log");
  QueryLog log;
  log.configure(LogLevel::trace, path);
  const std::string bad = testing::TempDir() + "no/such/dir/q.log";
  try {
    log.configure(LogLevel::debug, bad);
    ADD_FAILURE() << "opened " << bad;
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "queryLog " + bad + ": No such file or directory");
  }
  log.write(client("127.0.0.1", 9), asked("still.test", dns::kTypeA, dns::kNoError), reply_with(1), 0);
  Strings lines = file_lines(path);
  ASSERT_EQ(lines.size(), 1u) << "Trace, to the old file";
  EXPECT_NE(lines[0].find(" still.test. A opt=no NOERROR "), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace rk8s::server::test
