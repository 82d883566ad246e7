// SPDX-License-Identifier: Apache-2.0
// The process_* families (server/metrics/process.h): /proc/self/stat read
// field by field whatever the command's name holds, and this process's own.
#include "server/metrics/process.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/server/fixture.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

// A stat line whose command holds spaces and a ')': utime 250, stime 150
// ticks, started 1000 ticks after boot, 4096000 bytes virtual, 300 pages.
const char* kStat =
    "4242 (a b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 150 0 0 20 0 2 0 1000 4096000 300 "
    "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";

TEST(ProcessMetrics, ReadsStatAfterTheCommand) {
  ProcessStats s;
  ASSERT_TRUE(parse_proc_stat(kStat, 100, 4096, 1700000000, s));
  EXPECT_DOUBLE_EQ(s.cpu_seconds, 4.0);
  EXPECT_DOUBLE_EQ(s.start_time, 1700000010.0);
  EXPECT_EQ(s.virtual_bytes, 4096000u);
  EXPECT_EQ(s.resident_bytes, 300u * 4096);
  EXPECT_FALSE(parse_proc_stat("4242 (cut short) S 1 2", 100, 4096, 0, s));
  EXPECT_FALSE(parse_proc_stat("no command", 100, 4096, 0, s));
}

TEST(ProcessMetrics, RendersClientGolangNames) {
  ProcessStats s;
  ASSERT_TRUE(parse_proc_stat(kStat, 100, 4096, 1700000000, s));
  s.open_fds = 12;
  s.max_fds = 1048576;
  const std::string text = render_process_metrics(s);
  EXPECT_EQ(lines_starting(text, "process_"),
            (Strings{"process_cpu_seconds_total 4", "process_max_fds 1048576", "process_open_fds 12",
                     "process_resident_memory_bytes 1228800", "process_start_time_seconds 1700000010",
                     "process_virtual_memory_bytes 4096000"}));
  EXPECT_EQ(lines_starting(text, "# TYPE process_cpu_seconds_total"),
            Strings{"# TYPE process_cpu_seconds_total counter"});
}

TEST(ProcessMetrics, ThisProcess) {
  ProcessStats s = process_stats();
  EXPECT_GT(s.resident_bytes, 0u);
  EXPECT_GE(s.virtual_bytes, s.resident_bytes);
  EXPECT_GT(s.open_fds, 2u);  // the standard streams at least
  EXPECT_GE(s.max_fds, s.open_fds);
  EXPECT_GT(s.start_time, 1.6e9);
  EXPECT_LE(s.start_time, double(time(nullptr)) + 1);
}

}  // namespace
}  // namespace rk8s::server::test
