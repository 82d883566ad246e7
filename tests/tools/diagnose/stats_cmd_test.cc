// SPDX-License-Identifier: Apache-2.0
// resolv-k8s stats: the blocks preloaded processes wrote, a row for each
// process (its last block), their total, the latency quantiles read from
// the histograms as Prometheus's histogram_quantile reads them, and what
// each server showed; a file that is none of that refused.
#include "tools/diagnose/stats_cmd.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

const char kHeading[] = "pid program lookups dns sent classic saved autopath fallbacks libc p50 ms p99 ms";

// A block as preload/stats.cc writes it: the counters in `values` (the
// others 0), the histogram's cumulative counts by bound, the servers.
std::string block(const std::string& pid, const std::string& exe, std::map<std::string, int> values,
                  const std::vector<std::pair<std::string, int>>& buckets = {},
                  const std::vector<std::pair<std::string, std::string>>& servers = {}) {
  std::string out = "# resolv-k8s pid=" + pid + " exe=" + exe + "\n";
  for (const char* name :
       {"lookups", "dns_lookups", "queries_sent", "queries_classic", "queries_saved", "autopath", "fallbacks", "libc"})
    out += "resolv_k8s_" + std::string(name) + "_total{pid=\"" + pid + "\"} " + std::to_string(values[name]) + "\n";
  for (const auto& [le, count] : buckets)
    out += "resolv_k8s_lookup_duration_seconds_bucket{pid=\"" + pid + "\",le=\"" + le + "\"} " + std::to_string(count) +
           "\n";
  out += "resolv_k8s_lookup_duration_seconds_sum{pid=\"" + pid + "\"} 0.5\n";
  out += "resolv_k8s_lookup_duration_seconds_count{pid=\"" + pid + "\"} 0\n";
  for (const auto& [server, support] : servers)
    out += "resolv_k8s_server_autopath{pid=\"" + pid + "\",server=\"" + server + "\",support=\"" + support + "\"} 1\n";
  return out;
}

// The lines with their columns' spaces squeezed to one.
std::string squeezed(const std::string& text) {
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string word, kept;
    while (words >> word) kept += (kept.empty() ? "" : " ") + word;
    out += kept + "\n";
  }
  return out;
}

struct StatsCase {
  std::string file;
  std::string printed;
};

TEST(StatsCommand, ARowPerProcessTheirTotalAndTheServers) {
  const std::map<std::string, int> walked = {{"lookups", 2},         {"dns_lookups", 2},   {"queries_sent", 3},
                                             {"queries_classic", 6}, {"queries_saved", 3}, {"autopath", 2}};
  const StatsCase cases[] = {
      {block("7", "/usr/bin/curl", walked, {}, {{"10.96.0.10", "yes"}}),
       std::string(kHeading) + "\n7 curl 2 2 3 6 3 2 0 0 0.00 0.00\ntotal 1 processes 2 2 3 6 3 2 0 0 0.00 0.00\n"
                               "queries on the wire: 3 of the classic walk's 6 (50% saved)\nserver 10.96.0.10: "
                               "autopath support yes\n"},
      // A process's last block stands for it; the last process's word on a server wins.
      {block("7", "/usr/bin/curl", {{"lookups", 1}}, {}, {{"10.96.0.10", "unknown"}}) +
           block("8", "/usr/bin/python3", {{"lookups", 5}, {"libc", 5}}, {}, {{"10.96.0.10", "no"}}) +
           block("7", "/usr/bin/curl", {{"lookups", 4}, {"fallbacks", 1}}, {}, {{"10.96.0.10", "yes"}}),
       std::string(kHeading) +
           "\n8 python3 5 0 0 0 0 0 0 5 0.00 0.00\n7 curl 4 0 0 0 0 0 1 0 0.00 0.00\n"
           "total 2 processes 9 0 0 0 0 0 1 5 0.00 0.00\nserver 10.96.0.10: autopath support yes\n"},
      // The same pid of another program is another process.
      {block("7", "/bin/a", {{"lookups", 1}}) + block("7", "/bin/b", {{"lookups", 1}}),
       std::string(kHeading) + "\n7 a 1 0 0 0 0 0 0 0 0.00 0.00\n7 b 1 0 0 0 0 0 0 0 0.00 0.00\n"
                               "total 2 processes 2 0 0 0 0 0 0 0 0.00 0.00\n"},
      // p50 and p99 interpolated in their buckets; past the last finite
      // bound, that bound. The total's histogram is the sum of the rows'.
      {block("1", "/bin/a", {{"lookups", 10}}, {{"0.001", 0}, {"0.002", 5}, {"0.005", 10}, {"+Inf", 10}}) +
           block("2", "/bin/b", {{"lookups", 4}}, {{"0.001", 0}, {"0.002", 0}, {"0.005", 0}, {"+Inf", 4}}),
       std::string(kHeading) + "\n1 a 10 0 0 0 0 0 0 0 2.00 4.94\n2 b 4 0 0 0 0 0 0 0 5.00 5.00\n"
                               "total 2 processes 14 0 0 0 0 0 0 0 3.20 5.00\n"},
  };
  int n = 0;
  for (const StatsCase& c : cases) {
    SCOPED_TRACE(c.file);
    std::string path = test::temp_file("stats." + std::to_string(n++), c.file);
    test::Output run = test::run_captured([&] { return stats_command({path}); });
    EXPECT_EQ(0, run.status);
    EXPECT_EQ(c.printed, squeezed(run.out));
    EXPECT_EQ("", run.err);
  }
}

TEST(StatsCommand, AFileThatIsNoStatsFileIsRefused) {
  const std::string missing = test::temp_dir() + "no-such-stats";
  const StatsCase cases[] = {
      {"", "not a RESOLV_K8S_STATS file"},
      {"\n\n", "not a RESOLV_K8S_STATS file"},
      {"lookups 5\n", "not a RESOLV_K8S_STATS file"},
      {block("7", "/bin/a", {}) + "resolv_k8s_lookups_total{pid=\"7\"} many\n", "not a RESOLV_K8S_STATS file"},
  };
  int n = 0;
  for (const StatsCase& c : cases) {
    std::string path = test::temp_file("bad-stats." + std::to_string(n++), c.file);
    test::Output run = test::run_captured([&] { return stats_command({path}); });
    EXPECT_EQ(1, run.status);
    EXPECT_EQ("resolv-k8s: " + path + ": " + c.printed + "\n", run.err) << c.file;
  }
  test::Output run = test::run_captured([&] { return stats_command({missing}); });
  EXPECT_EQ(1, run.status);
  EXPECT_EQ("resolv-k8s: " + missing + ": No such file or directory\n", run.err);
  test::expect_usage_errors(stats_command, {{{}, "stats: one FILE is needed"},
                                            {{"a", "b"}, "stats: one FILE is needed"},
                                            {{"-v"}, "stats: one FILE is needed"}});
}

}  // namespace
}  // namespace rk8s::tools
