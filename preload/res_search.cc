// SPDX-License-Identifier: Apache-2.0
// res_search and res_nsearch in front of glibc's (glibc only: musl's
// res_search is res_query and never walks the list). Programs built before
// glibc 2.34 call them __res_search and __res_nsearch.
#include <errno.h>
#include <string.h>

#include "files/files.h"
#include "libc.h"
#include "resolve/dns_step.h"
#include "resolve/res_search_pipeline.h"
#include "start_library.h"
#include "stats.h"
#include "switches.h"

namespace rk8s {
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

int search(res_state statp, const char* name, int klass, int type, unsigned char* answer,
           int anslen) {
  start_library();
  Config conf;
  current_config(conf);
  int herr = HOST_NOT_FOUND;
  int rc = kLetLibcAnswer;
  if (state_is(*statp, conf))
    rc = maybe_traced(debug_on(), name, [&](ExchangeFn ex, ResolveTrace* trace) {
      return resolve_search({conf, name, klass, type, answer, anslen, &herr, ex, trace});
    });
  if (rc == kLetLibcAnswer) {
    count_libc_call();
    return libc_resolver().res_nsearch(statp, name, klass, type, answer, anslen);
  }
  statp->res_h_errno = herr;  // glibc's RES_SET_H_ERRNO
  h_errno = herr;
  return rc;
}

}  // namespace
}  // namespace rk8s

EXPORT int res_nsearch(res_state statp, const char* name, int klass, int type,
                       unsigned char* answer, int anslen) __THROW {
  using namespace rk8s;
  if (stepped_aside()) return libc_resolver().res_nsearch(statp, name, klass, type, answer, anslen);
  return timed([&] { return search(statp, name, klass, type, answer, anslen); });
}

// Weak: the build loads in a musl program too (and steps aside there), and
// musl names it res_init.
extern "C" __attribute__((weak)) int __res_init(void) __THROW;

// _res, initialised from resolv.conf first as glibc's res_search does.
EXPORT int res_search(const char* name, int klass, int type, unsigned char* answer,
                      int anslen) __THROW {
  using namespace rk8s;
  if (stepped_aside()) return libc_resolver().res_search(name, klass, type, answer, anslen);
  return timed([&] {
    if (!(_res.options & RES_INIT) && res_init() < 0) {
      count_libc_call();
      return libc_resolver().res_search(name, klass, type, answer, anslen);
    }
    return search(&_res, name, klass, type, answer, anslen);
  });
}

EXPORT int __res_nsearch(res_state statp, const char* name, int klass, int type,
                         unsigned char* answer, int anslen) __THROW {
  return res_nsearch(statp, name, klass, type, answer, anslen);
}

EXPORT int __res_search(const char* name, int klass, int type, unsigned char* answer,
                        int anslen) __THROW {
  return res_search(name, klass, type, answer, anslen);
}
