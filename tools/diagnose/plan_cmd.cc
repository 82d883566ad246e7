// SPDX-License-Identifier: Apache-2.0
#include "tools/diagnose/plan_cmd.h"

#include <stdio.h>
#include <sys/socket.h>

#include <string>

#include "tools/diagnose/api_client.h"
#include "tools/diagnose/gai_words.h"
#include "tools/usage/usage.h"

namespace rk8s::tools {
namespace {

std::string flag_words(unsigned flags) {
  std::string s = "Q";
  if (flags & RK8S_AUTOPATH_STOP_ON_EXISTS) s += " STOP_ON_EXISTS";
  if (flags & RK8S_AUTOPATH_PAST_NODATA) s += " PAST_NODATA";
  if (flags & RK8S_AUTOPATH_PAIRED)
    s += " PAIRED (then BOTH, one query for A and AAAA, once the server has shown support)";
  return s;
}

int print_plan(const rk8s_conf* c, const char* name, int family) {
  if (!rk8s_conf_complete(c)) {
    printf("%s: resolv.conf beyond the library's limits: libc answers\n", name);
    return 0;
  }
  if (int error = rk8s_plan_error(c, name)) {
    printf("%s: never asked of DNS: getaddrinfo fails with %s\n", name, eai_name(error));
    return 0;
  }
  auto candidate = [&](size_t i) {
    return api_text([&](char* out, size_t cap) { return rk8s_plan_candidate(c, name, i, out, cap); });
  };
  size_t types = family == AF_UNSPEC ? 2 : 1;
  printf("%s: %s, ndots %u, family %s\n", name, rk8s_conf_dialect(c) == RK8S_DIALECT_MUSL ? "musl" : "glibc",
         rk8s_conf_ndots(c), family_name(family));
  printf("classic walk, in order (%zu quer%s each):\n", types, types == 1 ? "y" : "ies");
  size_t count = rk8s_plan_candidate_count(c, name);
  for (size_t i = 0; i < count; i++) printf("  %zu  %s\n", i + 1, candidate(i).c_str());

  std::string suffixes =
      api_text([&](char* out, size_t cap) { return rk8s_autopath_suffixes(c, name, out, cap); });
  if (!rk8s_conf_autopath(c)) {
    printf("autopath: off (options k8s-autopath:off)\n");
  } else if (suffixes.empty()) {
    const char* why = count >= 2  ? "more candidates than the option holds"
                      : types == 2 ? "one candidate: asked as it is, then with BOTH and one suffix "
                                     "(one query for A and AAAA) once the server has shown support"
                                   : "one candidate: asked as it is";
    printf("autopath: none (%s)\n", why);
  } else {
    printf("autopath query (%zu instead of up to %zu):\n", types, types * count);
    printf("  QNAME     %s\n  suffixes  %s\n", candidate(0).c_str(), suffixes.c_str());
    printf("  flags     %s\n  code      %u\n", flag_words(rk8s_autopath_flags(c, family)).c_str(),
           rk8s_conf_autopath_code(c));
  }
  return 0;
}

}  // namespace

int plan_command(const Args& args) {
  int dialect = RK8S_DIALECT_GLIBC;
  std::string path = "/etc/resolv.conf", name;
  int family = AF_UNSPEC;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    bool has_value = i + 1 < args.size();
    if (a == "--musl") dialect = RK8S_DIALECT_MUSL;
    else if (a == "--conf" && has_value) path = args[++i];
    else if (a == "-f" && has_value) family = parse_family(args[++i]);
    else if (a == "--conf" || a == "-f") usage_error("plan: " + a + " needs a value");
    else if (a.starts_with("-") || !name.empty()) usage_error("plan: unexpected '" + a + "'");
    else name = a;
  }
  if (name.empty()) usage_error("plan: a NAME is needed");
  const rk8s_conf* c = load_conf(path, dialect);
  if (!c) return 1;
  return print_plan(c, name.c_str(), family);
}

}  // namespace rk8s::tools
