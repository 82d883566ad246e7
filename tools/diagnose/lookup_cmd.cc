// SPDX-License-Identifier: Apache-2.0
#include "tools/diagnose/lookup_cmd.h"

#include <ares.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <string>

#include "libresolv-k8s/files/files.h"
#include "libresolv-k8s/lookup/support.h"
#include "libresolv-k8s/resolve/addrinfo.h"
#include "libresolv-k8s/resolve/counters.h"
#include "libresolv-k8s/resolve/trace.h"
#include "libresolv-k8s/results/list.h"
#include "tools/diagnose/gai_words.h"
#include "tools/usage/usage.h"

namespace rk8s::tools {
namespace {

double now_ms() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

void print_results(const addrinfo* res) {
  for (const addrinfo* ai = res; ai; ai = ai->ai_next) {
    char addr[INET6_ADDRSTRLEN] = "?";
    const void* a = ai->ai_family == AF_INET
                        ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr)
                        : &reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr;
    inet_ntop(ai->ai_family, a, addr, sizeof addr);
    printf("  %-6s %s\n", family_name(ai->ai_family), addr);
  }
  if (res && res->ai_canonname) printf("  canonical name %s\n", res->ai_canonname);
}

// One name; true when it resolved.
bool lookup_one(const std::string& name, int family) {
  printf("%s (%s):\n", name.c_str(), family_name(family));
  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_CANONNAME;
  addrinfo* res = nullptr;
  rk8s::ResolveTrace trace;
  double t0 = now_ms();
  int rc = rk8s::resolve_addrinfo(name.c_str(), nullptr, &hints, &res, rk8s::traced_exchange, &trace);
  rk8s::trace_outcome(name.c_str(), rc, trace);
  const char* by = "resolv-k8s";
  if (rc == rk8s::kLetLibcAnswer) {
    // What the preload does: the whole call goes to libc.
    rk8s::count_libc_call();
    rc = getaddrinfo(name.c_str(), nullptr, &hints, &res);
    by = "libc (beyond what the library holds)";
  }
  double ms = now_ms() - t0;
  if (rc == 0) printf("  answered by %s in %.1f ms\n", by, ms);
  else printf("  %s (%s) from %s in %.1f ms\n", eai_name(rc), gai_strerror(rc), by, ms);
  print_results(res);
  rk8s::gai_free(rk8s::kLibc, res);
  return rc == 0;
}

void print_counters() {
  rk8s::Counters c = rk8s::counters();
  printf("counters: %lu lookups (%lu reached DNS), %lu queries sent, the classic walk: %lu",
         c.lookups, c.dns_lookups, c.queries, c.classic_queries);
  if (c.classic_queries >= c.queries) printf(" (saved %lu)", c.classic_queries - c.queries);
  printf("\n          %lu answered by autopath, %lu fell back, %lu handed to libc\n", c.autopath,
         c.fallbacks, c.libc);
  rk8s::ServerSupport servers[8];
  size_t n = rk8s::known_support(servers, 8);
  for (size_t i = 0; i < n; i++) {
    char addr[64];
    rk8s::ip_to_text(servers[i].server, addr, sizeof addr);
    printf("server %s: autopath support %s\n", addr, rk8s::support_name(servers[i].support));
  }
}

}  // namespace

int lookup_command(const Args& args) {
  ares_library_init(ARES_LIB_INIT_ALL);
  int family = AF_UNSPEC;
  Args names;
  std::string conf;
  for (size_t i = 0; i < args.size(); i++) {
    if (args[i] == "-f" && i + 1 < args.size()) family = parse_family(args[++i]);
    else if (args[i] == "--conf" && i + 1 < args.size()) conf = args[++i];
    else if (args[i] == "-f" || args[i] == "--conf") usage_error("lookup: " + args[i] + " needs a value");
    else if (args[i].starts_with("-")) usage_error("lookup: unexpected '" + args[i] + "'");
    else names.push_back(args[i]);
  }
  if (names.empty()) usage_error("lookup: a NAME is needed");
  if (!conf.empty()) {
    if (access(conf.c_str(), R_OK) != 0) {
      fprintf(stderr, "resolv-k8s lookup: %s: %s\n", conf.c_str(), strerror(errno));
      return 1;
    }
    rk8s::read_resolv_conf_from(conf.c_str());
  }
  bool all = true;
  for (const std::string& n : names) all &= lookup_one(n, family);
  print_counters();
  return all ? 0 : 1;
}

}  // namespace rk8s::tools
