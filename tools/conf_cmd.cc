// resolv-k8s conf [--musl] [FILE]: resolv.conf as the library reads it.
#include <arpa/inet.h>
#include <stdio.h>

#include <string>
#include <utility>

#include "cli.h"

namespace cli {
namespace {

void print_conf(const rk8s::Config& c) {
  const rk8s::Options& o = c.opt;
  printf("dialect     %s\n", c.dialect == rk8s::Dialect::musl ? "musl" : "glibc");
  for (const rk8s::IpAddr& ns : c.ns) {
    char addr[INET6_ADDRSTRLEN];
    inet_ntop(ns.family, ns.addr, addr, sizeof addr);
    printf("nameserver  %s", addr);
    if (ns.scope_id) printf("%%%u", ns.scope_id);
    printf("\n");
  }
  printf("search     ");
  for (size_t i = 0; i < c.search_count(); i++)
    printf(" %.*s", int(c.search(i).size), c.search(i).data);
  printf("%s\n", c.search_count() ? "" : " (none)");
  printf("ndots       %u\ntimeout     %u s\nattempts    %u\n", o.ndots, o.timeout, o.attempts);
  const std::pair<bool, const char*> flags[] = {
      {o.rotate, "rotate"},
      {o.edns0, "edns0"},
      {o.single_request, "single-request"},
      {o.single_request_reopen, "single-request-reopen"},
      {o.no_tld_query, "no-tld-query"},
      {o.no_reload, "no-reload"},
      {o.use_vc, "use-vc"},
      {o.trust_ad, "trust-ad"},
      {o.no_aaaa, "no-aaaa"}};
  std::string set;
  for (auto [on, name] : flags)
    if (on) set += std::string(" ") + name;
  printf("options    %s\n", set.empty() ? " (none)" : set.c_str());
  printf("autopath    %s, option code %u\n", o.autopath ? "on" : "off", o.autopath_code);

  const std::pair<uint32_t, const char*> warnings[] = {
      {rk8s::kWarnLongLine, "a line over 255 bytes, which musl skips: read anyway"},
      {rk8s::kWarnExtraNameserver, "more than 3 nameservers: the rest are ignored"},
      {rk8s::kWarnBadNameserver, "a nameserver line the libc drops"},
      {rk8s::kWarnAttemptsZero,
       "attempts:0 (glibc sends nothing, musl crashes): the library uses 1"},
      {rk8s::kWarnOptionCapped, "ndots, timeout or attempts above the libc's cap: capped"},
      {rk8s::kWarnBadProjectOption, "a k8s-autopath word that could not be read: ignored"},
      {rk8s::kWarnTooLarge, "beyond the library's limits: every lookup goes to libc"}};
  for (auto [bit, words] : warnings)
    if (c.warnings & bit) printf("warning     %s\n", words);
  if (!c.warnings) printf("warnings    none\n");
}

}  // namespace

int conf_command(const Args& args) {
  rk8s::Dialect dialect = rk8s::Dialect::glibc;
  std::string path = "/etc/resolv.conf";
  bool have_path = false;
  for (const std::string& a : args) {
    if (a == "--musl") dialect = rk8s::Dialect::musl;
    else if (a.starts_with("-") || have_path) usage_error("conf: unexpected '" + a + "'");
    else path = a, have_path = true;
  }
  static rk8s::Config c;
  if (!load_conf(path, dialect, c)) return 1;
  print_conf(c);
  return 0;
}

}  // namespace cli
