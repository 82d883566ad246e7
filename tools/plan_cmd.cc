// resolv-k8s plan [--musl] [--conf FILE] [-f FAMILY] NAME: the names the
// classic walk asks for, and the one autopath query standing for them.
#include <stdio.h>
#include <sys/socket.h>

#include <string>

#include "cli.h"
#include "lookup/lookup.h"

namespace cli {
namespace {

// The flags lookup() sends: A and AAAA go together for AF_UNSPEC (glibc's
// no-aaaa asks A only).
uint8_t query_flags(const rk8s::Config& c, int family) {
  bool paired = family == AF_UNSPEC && !(c.dialect == rk8s::Dialect::glibc && c.opt.no_aaaa);
  return rk8s::autopath_flags(paired ? 2 : 1);
}

std::string flag_words(uint8_t flags) {
  std::string s = "Q";
  if (flags & rk8s::autopath::kFlagStopOnExists) s += " STOP_ON_EXISTS";
  if (flags & rk8s::autopath::kFlagPaired)
    s += " PAIRED (then BOTH, one query for A and AAAA, once the server has shown support)";
  return s;
}

int print_plan(const rk8s::Config& c, const std::string& name, int family) {
  if (!c.complete) {
    printf("%s: resolv.conf beyond the library's limits: libc answers\n", name.c_str());
    return 0;
  }
  static rk8s::Plan plan;
  rk8s::build_plan(c, rk8s::str(name.c_str()), plan);
  if (plan.kind == rk8s::Plan::invalid_name) {
    printf("%s: never asked of DNS: getaddrinfo fails with %s\n", name.c_str(), eai_name(plan.error));
    return 0;
  }
  size_t types = family == AF_UNSPEC ? 2 : 1;
  printf("%s: %s, ndots %u, family %s\n", name.c_str(),
         c.dialect == rk8s::Dialect::musl ? "musl" : "glibc", c.opt.ndots, family_name(family));
  printf("classic walk, in order (%zu quer%s each):\n", types, types == 1 ? "y" : "ies");
  static rk8s::dns::Name n;
  size_t count = 0;
  for (; rk8s::candidate_name(c, plan, count, n); count++)
    printf("  %zu  %s\n", count + 1, name_text(n).c_str());

  static rk8s::autopath::QueryOption opt;
  uint8_t flags = query_flags(c, family);
  if (!c.opt.autopath) {
    printf("autopath: off (options k8s-autopath:off)\n");
  } else if (!rk8s::autopath_query(c, plan, flags, n, opt)) {
    printf("autopath: none (%s)\n", count < 2 ? "one candidate: asked as it is"
                                              : "more candidates than the option holds");
  } else {
    printf("autopath query (%zu instead of up to %zu):\n", types, types * count);
    printf("  QNAME     %s\n  suffixes ", name_text(n).c_str());
    for (size_t i = 0; i < opt.count; i++) printf(" %s", name_text(opt.suffix[i]).c_str());
    printf("\n  flags     %s\n  code      %u\n", flag_words(opt.flags).c_str(), c.opt.autopath_code);
  }
  return 0;
}

}  // namespace

int plan_command(const Args& args) {
  rk8s::Dialect dialect = rk8s::Dialect::glibc;
  std::string path = "/etc/resolv.conf", name;
  int family = AF_UNSPEC;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    bool has_value = i + 1 < args.size();
    if (a == "--musl") dialect = rk8s::Dialect::musl;
    else if (a == "--conf" && has_value) path = args[++i];
    else if (a == "-f" && has_value) family = parse_family(args[++i]);
    else if (a.starts_with("-") || !name.empty()) usage_error("plan: unexpected '" + a + "'");
    else name = a;
  }
  if (name.empty()) usage_error("plan: a NAME is needed");
  static rk8s::Config c;
  if (!load_conf(path, dialect, c)) return 1;
  return print_plan(c, name, family);
}

}  // namespace cli
