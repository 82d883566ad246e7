// SPDX-License-Identifier: Apache-2.0
#include "tools/diagnose/stats_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tools/usage/usage.h"

namespace rk8s::tools {
namespace {

// Columns: the metric resolv_k8s_NAME_total, and its heading.
const std::pair<const char*, const char*> kColumns[] = {
    {"lookups", "lookups"},         {"dns_lookups", "dns"},    {"queries_sent", "sent"},
    {"queries_classic", "classic"}, {"queries_saved", "saved"}, {"autopath", "autopath"},
    {"fallbacks", "fallbacks"},     {"libc", "libc"}};

// A lookup_duration_seconds histogram: upper bound -> lookups at most that long.
using Histogram = std::map<double, unsigned long>;

struct Block {
  std::string pid, exe;
  std::map<std::string, unsigned long> values;
  std::map<std::string, std::string> support;  // server -> what it showed
  Histogram durations;
};

// Prometheus's histogram_quantile: the bucket holding the q-th lookup,
// interpolated linearly; the last finite bound past it. In milliseconds.
double quantile_ms(const Histogram& h, double q) {
  if (h.empty() || h.rbegin()->second == 0) return 0;
  double rank = q * double(h.rbegin()->second), lower = 0;
  unsigned long below = 0;
  for (auto [bound, count] : h) {
    if (double(count) >= rank) {
      if (std::isinf(bound)) return lower * 1000;
      double share = count > below ? (rank - double(below)) / double(count - below) : 1;
      return (lower + (bound - lower) * share) * 1000;
    }
    lower = bound, below = count;
  }
  return lower * 1000;
}

bool read_blocks(std::istream& f, std::vector<Block>& out) {
  static const std::regex header(R"(# resolv-k8s pid=(\d+) exe=(.*))");
  static const std::regex metric(R"re(resolv_k8s_(\w+)_total\{pid="(\d+)"\} (\d+))re");
  static const std::regex server(
      R"re(resolv_k8s_server_autopath\{pid="(\d+)",server="([^"]+)",support="(\w+)"\} 1)re");
  static const std::regex bucket(
      R"re(resolv_k8s_lookup_duration_seconds_bucket\{pid="(\d+)",le="([^"]+)"\} (\d+))re");
  static const std::regex sum_count(R"re(resolv_k8s_lookup_duration_seconds_(sum|count)\{pid="(\d+)"\} \S+)re");
  std::smatch m;
  for (std::string line; std::getline(f, line);) {
    if (std::regex_match(line, m, header)) {
      // A running process writes a block every few seconds, each with its
      // counts so far: its last stands for it.
      std::erase_if(out, [&](const Block& b) { return b.pid == m[1] && b.exe == m[2]; });
      out.push_back(Block{m[1], m[2], {}, {}});
    } else if (std::regex_match(line, m, metric) && !out.empty() && m[2] == out.back().pid) {
      out.back().values[m[1]] = std::stoul(m[3]);
    } else if (std::regex_match(line, m, server) && !out.empty() && m[1] == out.back().pid) {
      out.back().support[m[2]] = m[3];
    } else if (std::regex_match(line, m, bucket) && !out.empty() && m[1] == out.back().pid) {
      out.back().durations[std::stod(m[2])] = std::stoul(m[3]);
    } else if (std::regex_match(line, m, sum_count) && !out.empty() && m[2] == out.back().pid) {
      // the buckets say it all
    } else if (!line.empty()) {
      return false;
    }
  }
  return true;
}

void print_row(const std::string& pid, const std::string& exe,
               std::map<std::string, unsigned long>& values, const Histogram& durations) {
  printf("%-8s %-20s", pid.c_str(), exe.c_str());
  for (auto [metric, heading] : kColumns) printf(" %9lu", values[metric]);
  printf(" %9.2f %9.2f\n", quantile_ms(durations, 0.5), quantile_ms(durations, 0.99));
}

}  // namespace

int stats_command(const Args& args) {
  if (args.size() != 1 || args[0].starts_with("-")) usage_error("stats: one FILE is needed");
  // Read under a shared lock: the library rewrites the file in place.
  int fd = open(args[0].c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || flock(fd, LOCK_SH) != 0) {
    fprintf(stderr, "resolv-k8s: %s: %s\n", args[0].c_str(), strerror(errno));
    return 1;
  }
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
  close(fd);
  std::istringstream f(text);
  std::vector<Block> blocks;
  if (!read_blocks(f, blocks) || blocks.empty()) {
    fprintf(stderr, "resolv-k8s: %s: not a RESOLV_K8S_STATS file\n", args[0].c_str());
    return 1;
  }
  printf("%-8s %-20s", "pid", "program");
  for (auto [metric, heading] : kColumns) printf(" %9s", heading);
  printf(" %9s %9s\n", "p50 ms", "p99 ms");
  std::map<std::string, unsigned long> total;
  Histogram durations;
  std::map<std::string, std::string> support;  // the last process's word wins
  for (Block& b : blocks) {
    print_row(b.pid, b.exe.substr(b.exe.rfind('/') + 1), b.values, b.durations);
    for (auto& [k, v] : b.values) total[k] += v;
    for (auto& [bound, n] : b.durations) durations[bound] += n;
    for (auto& [server, word] : b.support) support[server] = word;
  }
  print_row("total", std::to_string(blocks.size()) + " processes", total, durations);
  unsigned long classic = total["queries_classic"];
  if (classic)
    printf("queries on the wire: %lu of the classic walk's %lu (%lu%% saved)\n",
           total["queries_sent"], classic, 100 * total["queries_saved"] / classic);
  for (auto& [server, word] : support) printf("server %s: autopath support %s\n", server.c_str(), word.c_str());
  return 0;
}

}  // namespace rk8s::tools
