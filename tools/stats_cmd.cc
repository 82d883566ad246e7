// resolv-k8s stats FILE: the blocks preloaded processes appended to
// RESOLV_K8S_STATS (preload/stats.cc), one row each, and their total.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "cli.h"

namespace cli {
namespace {

// Columns: the metric resolv_k8s_NAME_total, and its heading.
const std::pair<const char*, const char*> kColumns[] = {
    {"lookups", "lookups"},         {"dns_lookups", "dns"},    {"queries_sent", "sent"},
    {"queries_classic", "classic"}, {"queries_saved", "saved"}, {"autopath", "autopath"},
    {"fallbacks", "fallbacks"},     {"libc", "libc"}};

struct Block {
  std::string pid, exe;
  std::map<std::string, unsigned long> values;
  std::map<std::string, std::string> support;  // server -> what it showed
};

bool read_blocks(std::ifstream& f, std::vector<Block>& out) {
  static const std::regex header(R"(# resolv-k8s pid=(\d+) exe=(.*))");
  static const std::regex metric(R"re(resolv_k8s_(\w+)_total\{pid="(\d+)"\} (\d+))re");
  static const std::regex server(
      R"re(resolv_k8s_server_autopath\{pid="(\d+)",server="([^"]+)",support="(\w+)"\} 1)re");
  std::smatch m;
  for (std::string line; std::getline(f, line);) {
    if (std::regex_match(line, m, header)) {
      out.push_back(Block{m[1], m[2], {}, {}});
    } else if (std::regex_match(line, m, metric) && !out.empty() && m[2] == out.back().pid) {
      out.back().values[m[1]] = std::stoul(m[3]);
    } else if (std::regex_match(line, m, server) && !out.empty() && m[1] == out.back().pid) {
      out.back().support[m[2]] = m[3];
    } else if (!line.empty()) {
      return false;
    }
  }
  return true;
}

void print_row(const std::string& pid, const std::string& exe,
               std::map<std::string, unsigned long>& values) {
  printf("%-8s %-20s", pid.c_str(), exe.c_str());
  for (auto [metric, heading] : kColumns) printf(" %9lu", values[metric]);
  printf("\n");
}

}  // namespace

int stats_command(const Args& args) {
  if (args.size() != 1 || args[0].starts_with("-")) usage_error("stats: one FILE is needed");
  std::ifstream f(args[0]);
  std::vector<Block> blocks;
  if (!f) {
    fprintf(stderr, "resolv-k8s: %s: %s\n", args[0].c_str(), strerror(errno));
    return 1;
  }
  if (!read_blocks(f, blocks) || blocks.empty()) {
    fprintf(stderr, "resolv-k8s: %s: not a RESOLV_K8S_STATS file\n", args[0].c_str());
    return 1;
  }
  printf("%-8s %-20s", "pid", "program");
  for (auto [metric, heading] : kColumns) printf(" %9s", heading);
  printf("\n");
  std::map<std::string, unsigned long> total;
  std::map<std::string, std::string> support;  // the last process's word wins
  for (Block& b : blocks) {
    print_row(b.pid, b.exe.substr(b.exe.rfind('/') + 1), b.values);
    for (auto& [k, v] : b.values) total[k] += v;
    for (auto& [server, word] : b.support) support[server] = word;
  }
  print_row("total", std::to_string(blocks.size()) + " processes", total);
  unsigned long classic = total["queries_classic"];
  if (classic)
    printf("queries on the wire: %lu of the classic walk's %lu (%lu%% saved)\n",
           total["queries_sent"], classic, 100 * total["queries_saved"] / classic);
  for (auto& [server, word] : support) printf("server %s: autopath support %s\n", server.c_str(), word.c_str());
  return 0;
}

}  // namespace cli
