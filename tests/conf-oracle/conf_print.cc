// Prints what parse_conf(glibc) makes of /etc/resolv.conf, the environment
// and the host name, in the form glibc_res prints glibc's own reading.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "conf/resolv_conf.h"

int main() {
  std::string text;
  if (FILE* f = fopen("/etc/resolv.conf", "rb")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    fclose(f);
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  rk8s::ConfEnv env{getenv("LOCALDOMAIN"), getenv("RES_OPTIONS"), host};
  static rk8s::Config c;
  rk8s::parse_conf(rk8s::Dialect::glibc, text.data(), text.size(), env, c);

  const rk8s::Options& o = c.opt;
  printf("ndots %u\ntimeout %u\nattempts %u\noptions", o.ndots, o.timeout, o.attempts);
  const std::pair<bool, const char*> flags[] = {
      {o.rotate, "rotate"}, {o.edns0, "edns0"}, {o.single_request, "single-request"},
      {o.single_request_reopen, "single-request-reopen"}, {o.no_tld_query, "no-tld-query"},
      {o.no_reload, "no-reload"}, {o.use_vc, "use-vc"}, {o.trust_ad, "trust-ad"}, {o.no_aaaa, "no-aaaa"}};
  for (auto [on, name] : flags)
    if (on) printf(" %s", name);
  printf("\n");
  for (const rk8s::IpAddr& ns : c.ns) {
    char buf[INET6_ADDRSTRLEN];
    printf("nameserver %s", inet_ntop(ns.family, ns.addr, buf, sizeof buf));
    if (ns.scope_id) printf("%%%u", ns.scope_id);
    printf("\n");
  }
  for (size_t i = 0; i < c.search_count(); i++) {
    rk8s::Str d = c.search(i);
    printf("search %.*s\n", int(d.size), d.data);
  }
  if (!c.complete) fprintf(stderr, "conf_print: search list over our limits\n");
  return 0;
}
