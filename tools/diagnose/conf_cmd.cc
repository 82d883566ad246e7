// SPDX-License-Identifier: Apache-2.0
#include "tools/diagnose/conf_cmd.h"

#include <stdio.h>

#include <string>
#include <utility>

#include "tools/diagnose/api_client.h"
#include "tools/usage/usage.h"

namespace rk8s::tools {
namespace {

void print_conf(const rk8s_conf* c) {
  printf("dialect     %s\n", rk8s_conf_dialect(c) == RK8S_DIALECT_MUSL ? "musl" : "glibc");
  for (size_t i = 0; i < rk8s_conf_nameserver_count(c); i++)
    printf("nameserver  %s\n",
           api_text([&](char* out, size_t cap) { return rk8s_conf_nameserver(c, i, out, cap); }).c_str());
  printf("search     ");
  size_t search = rk8s_conf_search_count(c);
  for (size_t i = 0; i < search; i++)
    printf(" %s", api_text([&](char* out, size_t cap) { return rk8s_conf_search(c, i, out, cap); }).c_str());
  printf("%s\n", search ? "" : " (none)");
  printf("ndots       %u\ntimeout     %u s\nattempts    %u\n", rk8s_conf_ndots(c), rk8s_conf_timeout(c),
         rk8s_conf_attempts(c));
  const std::pair<unsigned, const char*> options[] = {
      {RK8S_OPT_ROTATE, "rotate"},
      {RK8S_OPT_EDNS0, "edns0"},
      {RK8S_OPT_SINGLE_REQUEST, "single-request"},
      {RK8S_OPT_SINGLE_REQUEST_REOPEN, "single-request-reopen"},
      {RK8S_OPT_NO_TLD_QUERY, "no-tld-query"},
      {RK8S_OPT_NO_RELOAD, "no-reload"},
      {RK8S_OPT_USE_VC, "use-vc"},
      {RK8S_OPT_TRUST_AD, "trust-ad"},
      {RK8S_OPT_NO_AAAA, "no-aaaa"}};
  std::string set;
  for (auto [bit, name] : options)
    if (rk8s_conf_options(c) & bit) set += std::string(" ") + name;
  printf("options    %s\n", set.empty() ? " (none)" : set.c_str());
  printf("autopath    %s, option code %u\n", rk8s_conf_autopath(c) ? "on" : "off", rk8s_conf_autopath_code(c));

  const std::pair<unsigned, const char*> warnings[] = {
      {RK8S_WARN_LONG_LINE, "a line over 255 bytes, which musl skips: read anyway"},
      {RK8S_WARN_EXTRA_NAMESERVER, "more than 3 nameservers: the rest are ignored"},
      {RK8S_WARN_BAD_NAMESERVER, "a nameserver line the libc drops"},
      {RK8S_WARN_ATTEMPTS_ZERO, "attempts:0 (glibc sends nothing, musl crashes): the library uses 1"},
      {RK8S_WARN_OPTION_CAPPED, "ndots, timeout or attempts above the libc's cap: capped"},
      {RK8S_WARN_BAD_PROJECT_OPTION, "a k8s-autopath word that could not be read: ignored"},
      {RK8S_WARN_TOO_LARGE, "beyond the library's limits: every lookup goes to libc"}};
  for (auto [bit, words] : warnings)
    if (rk8s_conf_warnings(c) & bit) printf("warning     %s\n", words);
  if (!rk8s_conf_warnings(c)) printf("warnings    none\n");
}

}  // namespace

int conf_command(const Args& args) {
  int dialect = RK8S_DIALECT_GLIBC;
  std::string path = "/etc/resolv.conf";
  bool have_path = false;
  for (const std::string& a : args) {
    if (a == "--musl") dialect = RK8S_DIALECT_MUSL;
    else if (a.starts_with("-") || have_path) usage_error("conf: unexpected '" + a + "'");
    else path = a, have_path = true;
  }
  const rk8s_conf* c = load_conf(path, dialect);
  if (!c) return 1;
  print_conf(c);
  return 0;
}

}  // namespace rk8s::tools
