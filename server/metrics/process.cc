// SPDX-License-Identifier: Apache-2.0
#include "server/metrics/process.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace rk8s::server {
namespace {

std::string read_file(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t boot_time() {
  std::istringstream in(read_file("/proc/stat"));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("btime ", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

uint64_t open_fds() {
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return 0;
  uint64_t n = 0;
  while (const dirent* e = readdir(dir))
    if (e->d_name[0] != '.') n++;
  closedir(dir);
  return n;
}

// A float as Prometheus reads it, to the precision of a double.
std::string number(double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

bool parse_proc_stat(const std::string& text, long ticks, long page, uint64_t boot, ProcessStats& out) {
  // The command, field 2, is in parentheses and may hold anything: the
  // fields are counted from after its last ')'. Field 3 is the first.
  size_t close = text.rfind(')');
  if (close == std::string::npos || ticks <= 0) return false;
  std::istringstream in(text.substr(close + 1));
  std::vector<std::string> f;
  for (std::string field; in >> field;) f.push_back(field);
  if (f.size() < 22) return false;
  try {
    // utime 14, stime 15, starttime 22 (ticks); vsize 23 (bytes), rss 24 (pages).
    out.cpu_seconds = double(std::stoull(f[14 - 3]) + std::stoull(f[15 - 3])) / double(ticks);
    out.start_time = double(boot) + double(std::stoull(f[22 - 3])) / double(ticks);
    out.virtual_bytes = std::stoull(f[23 - 3]);
    out.resident_bytes = std::stoull(f[24 - 3]) * uint64_t(page);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

ProcessStats process_stats() {
  ProcessStats s;
  parse_proc_stat(read_file("/proc/self/stat"), sysconf(_SC_CLK_TCK), sysconf(_SC_PAGESIZE), boot_time(), s);
  s.open_fds = open_fds();
  rlimit nofile;
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0) s.max_fds = nofile.rlim_cur;
  return s;
}

std::string render_process_metrics(const ProcessStats& s) {
  struct Family {
    const char* name;
    const char* type;
    const char* help;
    std::string value;
  };
  const Family families[] = {
      {"process_cpu_seconds_total", "counter", "User and system CPU time spent in seconds.", number(s.cpu_seconds)},
      {"process_max_fds", "gauge", "Maximum number of open file descriptors.", std::to_string(s.max_fds)},
      {"process_open_fds", "gauge", "Number of open file descriptors.", std::to_string(s.open_fds)},
      {"process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", std::to_string(s.resident_bytes)},
      {"process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
       number(s.start_time)},
      {"process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", std::to_string(s.virtual_bytes)},
  };
  std::string out;
  for (const Family& f : families)
    out += std::string("# HELP ") + f.name + " " + f.help + "\n# TYPE " + f.name + " " + f.type + "\n" + f.name +
           " " + f.value + "\n";
  return out;
}

}  // namespace rk8s::server
