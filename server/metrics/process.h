// SPDX-License-Identifier: Apache-2.0
// The process_* families every Prometheus client library serves (client_golang's
// process collector, the Go of CoreDNS's): CPU seconds, resident and
// virtual memory, open and allowed descriptors, the start time, read from
// /proc/self as they are, so that the dashboards and alerts written for
// them (RSS, CPU, descriptors) read the cache too.
#pragma once

#include <cstdint>
#include <string>

namespace rk8s::server {

struct ProcessStats {
  double cpu_seconds = 0;  // user and system
  uint64_t resident_bytes = 0;
  uint64_t virtual_bytes = 0;
  double start_time = 0;  // seconds since the epoch
  uint64_t open_fds = 0;
  uint64_t max_fds = 0;  // the soft RLIMIT_NOFILE
};

// /proc/self/stat's text, with the clock's ticks a second, the page's size
// and the boot time (/proc/stat's btime); false when it is not that.
bool parse_proc_stat(const std::string& text, long ticks, long page, uint64_t boot_time, ProcessStats& out);
// This process's; a part that cannot be read is left 0.
ProcessStats process_stats();
std::string render_process_metrics(const ProcessStats& s);

}  // namespace rk8s::server
