// SPDX-License-Identifier: Apache-2.0
#include "server/process/descriptors.h"

#include <dirent.h>
#include <sys/resource.h>

#include <algorithm>

namespace rk8s::server {

size_t raise_descriptor_limit() {
  rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return 1024;
  if (r.rlim_cur < r.rlim_max) {
    rlimit raised{r.rlim_max, r.rlim_max};
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) r = raised;
  }
  return r.rlim_cur == RLIM_INFINITY ? SIZE_MAX : size_t(r.rlim_cur);
}

std::string fit_descriptors(Limits& limits, size_t available, size_t reserved) {
  size_t wanted = limits.max_concurrent + limits.max_tcp_clients + limits.max_http_clients;
  size_t room = available > reserved ? available - reserved : 0;
  if (wanted <= room) return "";
  auto fit = [&](size_t& limit, const char* name) {
    limit = std::max<size_t>(1, limit * room / wanted);
    return std::string(name) + " " + std::to_string(limit);
  };
  return "limits lowered to fit " + std::to_string(available) + " descriptors (RLIMIT_NOFILE): " +
         fit(limits.max_concurrent, "maxConcurrent") + ", " + fit(limits.max_tcp_clients, "maxTCPClients") + ", " +
         fit(limits.max_http_clients, "maxHTTPClients");
}

size_t open_descriptors() {
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return 0;
  size_t n = 0;
  while (dirent* e = readdir(dir)) n += e->d_name[0] != '.';
  closedir(dir);
  return n - 1;  // the directory's own
}

}  // namespace rk8s::server
