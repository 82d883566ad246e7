// SPDX-License-Identifier: Apache-2.0
#include "tests/conf-oracle/conf_text.h"

#include <arpa/inet.h>

void print_conf(FILE* out, const rk8s::Config& c) {
  const rk8s::Options& o = c.opt;
  fprintf(out, "ndots %u\ntimeout %u\nattempts %u\noptions", o.ndots, o.timeout, o.attempts);
  const struct {
    bool on;
    const char* name;
  } flags[] = {{o.rotate, "rotate"}, {o.edns0, "edns0"}, {o.single_request, "single-request"},
               {o.single_request_reopen, "single-request-reopen"}, {o.no_tld_query, "no-tld-query"},
               {o.no_reload, "no-reload"}, {o.use_vc, "use-vc"}, {o.trust_ad, "trust-ad"},
               {o.no_aaaa, "no-aaaa"}};
  for (const auto& f : flags)
    if (f.on) fprintf(out, " %s", f.name);
  fprintf(out, "\n");
  for (const rk8s::IpAddr& ns : c.ns) {
    char buf[INET6_ADDRSTRLEN];
    fprintf(out, "nameserver %s", inet_ntop(ns.family, ns.addr, buf, sizeof buf));
    if (ns.scope_id) fprintf(out, "%%%u", ns.scope_id);
    fprintf(out, "\n");
  }
  for (size_t i = 0; i < c.search_count(); i++) {
    rk8s::Str d = c.search(i);
    fprintf(out, "search %.*s\n", int(d.size), d.data);
  }
}
