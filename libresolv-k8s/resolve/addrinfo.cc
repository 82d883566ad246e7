// SPDX-License-Identifier: Apache-2.0
// getaddrinfo: the libc's own steps (results/), /etc/hosts, DNS, the list.
#include "resolve/addrinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "files/files.h"
#include "files/hosts.h"
#include "resolve/counters.h"
#include "resolve/gethostbyname_pipeline.h"
#include "results/gai_steps.h"
#include "util/release.h"

namespace rk8s {
namespace {

// The addresses found, in the order the libc collects them.
struct Found {
  IpAddr addrs[kMaxGaiAddrs];
  size_t count = 0;
  char canon[kHostsNameBytes] = {};
  bool complete = true;

  template <class List>
  void take(const List& list) {
    for (const IpAddr& a : list) {
      if (count == kMaxGaiAddrs) {
        complete = false;
        return;
      }
      addrs[count++] = a;
    }
  }
};

// /etc/hosts for the families the request wants, in glibc's order of
// asking. Returns 0, an EAI_* code (musl: the name is only of the other
// family) or kLetLibcAnswer.
int from_hosts(const GaiRequest& req, Found& found) {
  HostsFile hosts;
  if (!hosts) return 0;
  HostsQuery q;
  q.dialect = kLibc;
  q.release = req.release;
  q.multi = kLibc == Dialect::glibc && hosts_multi();
  bool two_steps = kLibc == Dialect::glibc && req.family == AF_INET6 && req.want_a;
  q.family = two_steps                      ? AF_INET6
             : req.want_a && req.want_aaaa  ? AF_UNSPEC
             : req.want_a                   ? AF_INET
                                            : AF_INET6;
  HostsResult first, second;  // both outlive `canon`
  hosts_lookup(q, hosts.lines(), str(req.node), first);
  int rc = !first.complete ? kLetLibcAnswer : first.error;
  if (rc == 0) {
    found.take(first.addrs);
    const char* canon = first.canon();
    if (two_steps && (!req.a_only_without_aaaa || found.count == 0)) {
      // glibc's second nss_files call opens the file again.
      q.family = AF_INET;
      HostsFile again;
      if (again) hosts_lookup(q, again.lines(), str(req.node), second);
      if (!second.complete) rc = kLetLibcAnswer;
      found.take(second.addrs);
      if (!first.found()) canon = second.canon();
    }
    size_t n = strnlen(canon, sizeof found.canon - 1);
    memcpy(found.canon, canon, n);
    found.canon[n] = 0;
  }
  return found.complete ? rc : kLetLibcAnswer;
}

// glibc's verdict when no walk found anything (gaih_inet's no_data and
// no_inet6_data), or musl's (NODATA is EAI_NODATA from 1.2.4 on).
int error_of(Status a, Status b) {
  if (a == Status::pass_through || b == Status::pass_through) return kLetLibcAnswer;
  if (a == Status::system || b == Status::system) return EAI_SYSTEM;
  if (kLibc == Dialect::musl) {
    if (a == Status::try_again) return EAI_AGAIN;
    return a == Status::no_data && libc_release() >= release(1, 2, 4) ? EAI_NODATA : EAI_NONAME;
  }
  if (a == Status::try_again && b == Status::try_again) return EAI_AGAIN;
  bool a_nodata = a == Status::try_again || a == Status::no_data;
  bool b_nodata = b == Status::try_again || b == Status::no_data;
  return a_nodata && b_nodata ? EAI_NODATA : EAI_NONAME;
}

// The canonical name: glibc's escaped as ns_name_ntop escapes it; musl's
// as dn_expand writes it, unescaped, and when no CNAME named it the
// candidate as name_from_dns_search wrote it: the name typed less one
// final dot, then the search domain as written, its final dot kept.
void canon_text(const Config& conf, const Plan& plan, const char* node, const LookupResult& r,
                char (&out)[kHostsNameBytes]) {
  const dns::Name& canon = r.canon;
  if (conf.dialect != Dialect::musl) {
    dns::name_to_text(canon, out, sizeof out);
    return;
  }
  // musl's dn_expand: the labels' bytes as they are, a dot between them.
  size_t n = 0;
  for (size_t p = 0; canon.wire[p] && n + canon.wire[p] + 1 < sizeof out; p += canon.wire[p] + 1) {
    if (n) out[n++] = '.';
    memcpy(out + n, canon.wire + p + 1, canon.wire[p]);
    n += canon.wire[p];
  }
  out[n] = 0;
  if (r.canon_from_cname) return;
  dns::Name c;
  for (size_t i = 0; candidate_name(conf, plan, i, c); i++) {
    if (!dns::name_equal(c, canon)) continue;
    size_t typed = strlen(node);
    typed -= typed > 0 && node[typed - 1] == '.';
    if (plan.suffix[i] == kAsIs) {
      snprintf(out, sizeof out, "%.*s", int(typed), node);
    } else {
      Str domain = conf.search(plan.suffix[i]);
      snprintf(out, sizeof out, "%.*s.%.*s", int(typed), node, int(domain.size), domain.data);
    }
    return;
  }
}

// One walk; its addresses join `found`.
Status walk(const LookupRequest& lookup_req, const char* node, Found& found, ResolveTrace* trace) {
  LookupResult r;
  dns_lookup(lookup_req, r, trace);
  if (r.status != Status::found) return r.status;
  if (found.count == 0) canon_text(lookup_req.conf, lookup_req.plan, node, r, found.canon);
  found.take(r.addrs);
  return found.complete ? Status::found : Status::pass_through;
}

// DNS for the families the request wants: glibc asks A and AAAA together
// for AF_UNSPEC, and AAAA then A for AF_INET6 with AI_V4MAPPED; musl asks
// both types of every candidate.
int from_dns(const GaiRequest& req, ExchangeFn exchange, Found& found, ResolveTrace* trace) {
  Config conf;
  Plan plan;
  int rc = dns_plan(req.node, conf, plan, trace);
  // glibc asks nss_dns's gethostbyname3_r for one family with AI_CANONNAME,
  // its one entry without check_name: it sends names the others refuse
  // (sysdeps/posix/getaddrinfo.c, get_nss_addresses). Libc answers those.
  bool name_unchecked = kLibc == Dialect::glibc && (req.flags & AI_CANONNAME) && req.family != AF_UNSPEC;
  if (rc != 0 && rc != kLetLibcAnswer && name_unchecked) return kLetLibcAnswer;
  if (rc != 0) return rc;

  static const uint16_t kA[] = {dns::kTypeA}, kAAAA[] = {dns::kTypeAAAA};
  static const uint16_t kBoth[] = {dns::kTypeA, dns::kTypeAAAA};
  Status first, second;
  if (kLibc == Dialect::musl || req.family != AF_INET6 || !req.want_a) {
    bool both = req.want_a && req.want_aaaa && !(kLibc == Dialect::glibc && conf.opt.no_aaaa);
    const uint16_t* qtypes = both ? kBoth : req.want_a ? kA : kAAAA;
    size_t nq = both ? 2 : 1;
    first = second = walk({conf, plan, qtypes, nq, exchange}, req.node, found, trace);
  } else {
    first = walk({conf, plan, kAAAA, 1, exchange}, req.node, found, trace);
    second = first;
    if (!req.a_only_without_aaaa || found.count == 0) {
      second = walk({conf, plan, kA, 1, exchange}, req.node, found, trace);
      if (first == Status::found || second == Status::found) first = second = Status::found;
    }
  }
  if (first == Status::found) return 0;
  return error_of(first, second);
}

// try_simple_gethostbyname: glibc asks AF_INET without AI_CANONNAME of
// gethostbyname2_r, in a buffer it grows on ERANGE, and reads h_errno:
// NO_DATA and any failure but TRY_AGAIN are EAI_NODATA there.
int from_gethostbyname(const GaiRequest& req, ExchangeFn exchange, Found& found,
                       ResolveTrace* trace) {
  for (size_t len = 4096; len <= 65536; len *= 2) {
    char* buf = static_cast<char*>(malloc(len));
    if (!buf) return EAI_MEMORY;
    hostent h, *result = nullptr;
    int herr = NETDB_SUCCESS;
    int rc = resolve_hostent({req.node, AF_INET, &h, buf, len, &result, &herr, exchange, trace});
    for (char** a = result ? h.h_addr_list : nullptr; a && *a && found.complete; a++) {
      IpAddr ip[1];
      ip[0].family = AF_INET;
      memcpy(ip[0].addr, *a, 4);
      found.take(ip);
    }
    free(buf);
    if (rc == ERANGE && herr == NETDB_INTERNAL) continue;
    if (rc == kHostentLibc) return kLetLibcAnswer;
    if (rc == 0) return result ? 0 : herr == NO_DATA ? EAI_NODATA : EAI_NONAME;
    return herr == NETDB_INTERNAL ? EAI_SYSTEM : herr == TRY_AGAIN ? EAI_AGAIN : EAI_NODATA;
  }
  return kLetLibcAnswer;
}

bool has_punycode(const char* name) {
  for (const char* p = name; *p; p++)
    if ((p == name || p[-1] == '.') && strncasecmp(p, "xn--", 4) == 0) return true;
  return false;
}

}  // namespace

int resolve_addrinfo(const char* node, const char* service, const struct addrinfo* hints,
                     struct addrinfo** res, ExchangeFn exchange, ResolveTrace* trace) {
  GaiRequest req;
  int rc = gai_start(kLibc, node, service, hints, req, res);
  if (rc == kGaiLibc) return kLetLibcAnswer;
  if (rc != kGaiResolve) return rc;

  Found found;
  if (kLibc == Dialect::glibc && req.family == AF_INET && !(req.flags & AI_CANONNAME)) {
    rc = from_gethostbyname(req, exchange, found, trace);  // counted there
    if (rc != 0) return rc;
    if (!found.complete) return kLetLibcAnswer;
    return gai_finish(req, found.addrs, found.count, nullptr, res);
  }
  HostsSources sources = kLibc == Dialect::glibc ? current_hosts_sources() : HostsSources::files_dns;
  if (sources == HostsSources::libc) return kLetLibcAnswer;
  rc = 0;
  if (sources == HostsSources::files_dns || sources == HostsSources::files_dns_then_libc)
    rc = from_hosts(req, found);
  if (rc == 0 && found.count == 0) {
    rc = from_dns(req, exchange, found, trace);
    bool then_libc =
        sources == HostsSources::files_dns_then_libc || sources == HostsSources::dns_then_libc;
    if (rc != 0 && then_libc) rc = kLetLibcAnswer;
  }
  // AI_CANONIDN turns a punycode canonical name into Unicode: libidn2's job.
  if (rc == 0 && (req.flags & AI_CANONNAME) && (req.flags & kAiCanonIdn) && has_punycode(found.canon))
    rc = kLetLibcAnswer;
  if (rc == kLetLibcAnswer) return rc;
  count_lookup();
  if (rc != 0) return rc;
  return gai_finish(req, found.addrs, found.count, found.canon[0] ? found.canon : nullptr, res);
}

}  // namespace rk8s
