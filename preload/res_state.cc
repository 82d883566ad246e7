// SPDX-License-Identifier: Apache-2.0
#include "res_state.h"

#include <string.h>

#include "files/files.h"
#include "libc.h"

namespace rk8s {

#ifdef __GLIBC__
namespace {

unsigned long options_of(const Options& o) {
  return RES_INIT | RES_DEFAULT | (o.rotate ? RES_ROTATE : 0) | (o.edns0 ? RES_USE_EDNS0 : 0) |
         (o.single_request_reopen ? RES_SNGLKUPREOP : 0) |
         (o.single_request ? RES_SNGLKUP : 0) | (o.no_tld_query ? RES_NOTLDQUERY : 0) |
         (o.no_reload ? RES_NORELOAD : 0) | (o.use_vc ? RES_USEVC : 0) |
         (o.trust_ad ? RES_TRUSTAD : 0) | (o.no_aaaa ? RES_NOAAAA : 0);
}

bool same_nameserver(const sockaddr* sa, const IpAddr& ns) {
  if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6) return false;
  uint16_t port = sa->sa_family == AF_INET ? reinterpret_cast<const sockaddr_in*>(sa)->sin_port
                                           : reinterpret_cast<const sockaddr_in6*>(sa)->sin6_port;
  return port == htons(NAMESERVER_PORT) && same_ip(ip_from_sockaddr(sa), ns);
}

// glibc's getaddrinfo and gethostbyname take the resolver context first
// (resolv/resolv_context.c, maybe_init: res_init on first use, again when
// resolv.conf changed, nothing when the application changed _res), and
// its gethostbyname_r does so before it answers a dotted quad from the name
// alone (nss/getXXbyYY_r.c, then __nss_hostname_digits_dots): the one
// exported way to that step, in every release, that sends nothing.
void refresh_res() {
  hostent h, *result;
  char buf[128];
  int herr;
  libc_resolver().gethostbyname_r("0.0.0.0", &h, buf, sizeof buf, &result, &herr);
}

}  // namespace

// What res_init makes of `conf`, unchanged by the application: the
// nameservers and search list as glibc's resolv_conf_matches compares them,
// and the options, ndots, timeout and attempts too (glibc uses the
// application's, which our walk would not).
bool state_is(const struct __res_state& s, const Config& conf) {
  if (s.options != options_of(conf.opt) || s.ndots != conf.opt.ndots ||
      s.retrans != conf.opt.timeout || s.retry != conf.opt.attempts)
    return false;
  size_t nserv = conf.ns.count;
  if (s.nscount != int(nserv) || (s._u._ext.nscount != 0 && s._u._ext.nscount != nserv))
    return false;
  for (size_t i = 0; i < nserv; i++) {
    const sockaddr* sa = s.nsaddr_list[i].sin_family == 0
                             ? reinterpret_cast<const sockaddr*>(s._u._ext.nsaddrs[i])
                             : reinterpret_cast<const sockaddr*>(&s.nsaddr_list[i]);
    if (!sa || !same_nameserver(sa, conf.ns[i])) return false;
  }
  if (!s.dnsrch[0]) return conf.search_count() == 0 && s.defdname[0] == '\0';
  if (s.dnsrch[0] != s.defdname) return false;
  // glibc keeps MAXDNSRCH domains in the state, as many as fit; the walk
  // reads its own copy of the whole list.
  size_t bytes = 0;
  for (size_t i = 0; i < conf.search_count() && i < MAXDNSRCH; i++) {
    Str d = conf.search(i);
    if (!s.dnsrch[i]) return bytes + d.size + 1 > sizeof s.defdname;
    bytes += strlen(s.dnsrch[i]) + 1;
    if (strlen(s.dnsrch[i]) != d.size || memcmp(s.dnsrch[i], d.data, d.size) != 0) return false;
  }
  return true;
}

bool application_set_res() {
  if (!gnu_get_libc_version) return false;
  refresh_res();
  Config conf;
  current_config(conf);
  return !state_is(_res, conf);
}
#else
bool application_set_res() { return false; }
#endif

}  // namespace rk8s
