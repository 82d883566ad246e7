// SPDX-License-Identifier: Apache-2.0
// gethostbyname2_r: numeric names, /etc/hosts and DNS as glibc asks them,
// or getaddrinfo's lookup as musl does; the hostent layouts are
// results/hostent_layout.h's.
#include "resolve/gethostbyname_pipeline.h"

#include <errno.h>
#include <string.h>

#include "files/files.h"
#include "files/hosts.h"
#include "resolve/addrinfo.h"
#include "resolve/counters.h"
#include "results/gai_steps.h"
#include "results/hostent_layout.h"
#include "results/list.h"
#include "util/release.h"
#include "util/text.h"

namespace rk8s {
namespace {

int glibc_found(const HostentRequest& req, const HostentParts& p) {
  if (glibc_hostent(p, req.h, req.buf, req.len) == ERANGE) {
    *req.herr = NETDB_INTERNAL;
    return ERANGE;
  }
  *req.result = req.h;
  return 0;
}

// __nss_hostname_digits_dots: true when it answered, with `rc`. It asks
// for room before it knows whether the name is numeric.
bool glibc_numeric(const HostentRequest& req, int& rc) {
  const char* name = req.name;
  int af = req.af;
  if (!is_hex(name[0]) && name[0] != ':') return false;
  size_t n = strlen(name);
  rc = 0;
  if (req.len < 16 + 3 * sizeof(char*) + n + 1) {
    *req.herr = NETDB_INTERNAL;
    rc = ERANGE;
    return true;
  }
  uint8_t addr[16] = {};
  bool ok;
  if (is_digit(name[0]) && strspn(name, "0123456789.") == n && name[n - 1] != '.') {
    ok = af == AF_INET ? parse_inet_aton(str(name), addr) : parse_inet_pton(AF_INET6, str(name), addr);
  } else if (strchr(name, ':')) {
    if (af == AF_INET6 && (strspn(name, "0123456789abcdefABCDEF:.") != n || name[n - 1] == '.'))
      return false;
    ok = af == AF_INET6 && parse_inet_pton(AF_INET6, str(name), addr);
  } else {
    return false;
  }
  if (!ok) {
    *req.herr = HOST_NOT_FOUND;
    return true;
  }
  glibc_numeric_hostent(af, addr, name, req.h, req.buf, req.len);
  *req.herr = NETDB_SUCCESS;
  *req.result = req.h;
  return true;
}

// nss_files for one family: true when the name is there (or libc must
// answer: rc = kHostentLibc). With `multi on` it reads to the end of the
// file, which leaves HOST_NOT_FOUND in *herr on success too
// (gethostbyname3_multi, internal_getent at end of file); else *herr is
// left as it was.
bool glibc_files(const HostentRequest& req, int& rc) {
  HostsFile hosts;
  if (!hosts) return false;
  HostsQuery q;
  q.family = req.af;
  q.multi = hosts_multi();
  HostsResult hr;
  hosts_lookup(q, hosts.lines(), str(req.name), hr);
  if (!hr.complete) return rc = kHostentLibc, true;
  // internal_getent reads and splits each line in the caller's buffer, and
  // with multi on the addresses and names of later lines join the first's
  // there (gethostbyname3_multi); when that does not fit it asks for a
  // larger buffer (ERANGE). Libc answers when it might not fit.
  size_t room = hr.line_room + 64;
  if (q.multi && hr.found()) {
    size_t last = hr.alias_count() ? hr.alias_at[hr.alias_count() - 1] : 0;
    room += last + strlen(hr.names + last) + 1 + (16 + 8) * hr.addrs.count + 8 * hr.alias_count();
  }
  if (room > req.len) return rc = kHostentLibc, true;
  if (!hr.found()) return false;
  const char* names[kMaxHostsAliases + 1];
  for (size_t i = 0; i < hr.alias_count(); i++) names[i] = hr.alias(i);
  names[hr.alias_count()] = hr.canon();
  if (q.multi) *req.herr = HOST_NOT_FOUND;
  rc = glibc_found(req, {req.af, names, hr.alias_count() + 1, hr.addrs.items, hr.addrs.count});
  return true;
}

// getanswer_r's names: the host names among the question and the CNAME
// targets; the question must be one.
int glibc_dns_found(const HostentRequest& req, const LookupResult& r) {
  const AliasNames& al = r.aliases;
  if (al.overflow) return kHostentLibc;
  const char* names[17];
  size_t n = 0;
  for (size_t i = 0; i < al.at.count; i++)
    if (al.host_name >> i & 1) names[n++] = al[i];
  *req.herr = NETDB_SUCCESS;
  return glibc_found(req, {req.af, names, n, r.addrs.items, r.addrs.count});
}

// gethostbyname3_r and the nss loop: NOTFOUND returns 0, TRYAGAIN EAGAIN,
// UNAVAIL (the walk's last query unanswered) errno: EAGAIN with TRY_AGAIN,
// else the errno it had before (0 in practice).
int glibc_dns(const HostentRequest& req, bool then_libc) {
  int* herr = req.herr;
  Config conf;
  Plan plan;
  int rc = dns_plan(req.name, conf, plan, req.trace);
  if (rc == kLetLibcAnswer || (rc != 0 && then_libc)) return kHostentLibc;
  if (rc != 0) {  // check_name
    *herr = HOST_NOT_FOUND;
    return 0;
  }
  uint16_t qtype = req.af == AF_INET ? dns::kTypeA : dns::kTypeAAAA;
  LookupResult r;
  dns_lookup({conf, plan, &qtype, 1, req.exchange}, r, req.trace);
  bool question_ok = r.aliases.at.count && (r.aliases.host_name & 1);
  if (r.status == Status::found && question_ok) return glibc_dns_found(req, r);
  if (r.status == Status::system || r.status == Status::pass_through || then_libc)
    return kHostentLibc;
  if (r.status == Status::found || (r.empty_answer && !question_ok)) {
    *herr = HOST_NOT_FOUND;
    return 0;
  }
  if (r.empty_answer) {
    *herr = NO_RECOVERY;
    return EAGAIN;
  }
  *herr = r.status == Status::no_data     ? NO_DATA
          : r.status == Status::try_again ? TRY_AGAIN
          : r.status == Status::no_recovery ? NO_RECOVERY
                                           : HOST_NOT_FOUND;
  bool unavail = r.last_unanswered || (r.autopath_answered && r.status == Status::try_again);
  return unavail && *herr == TRY_AGAIN ? EAGAIN : 0;
}

int glibc_lookup(const HostentRequest& req) {
  int rc;
  if (glibc_numeric(req, rc)) return rc;
  HostsSources sources = current_hosts_sources();
  if (sources == HostsSources::libc) return kHostentLibc;
  bool files = sources == HostsSources::files_dns || sources == HostsSources::files_dns_then_libc;
  if (!files || !glibc_files(req, rc)) {
    bool then_libc =
        sources == HostsSources::files_dns_then_libc || sources == HostsSources::dns_then_libc;
    rc = glibc_dns(req, then_libc);
  }
  if (rc != kHostentLibc) count_lookup();
  return rc;
}

// musl's gethostbyname2_r: __lookup_name(name, af, AI_CANONNAME) is what
// getaddrinfo asks for one socket type. From 1.2.4 on a name not found is
// no error of the call (f081d533).
int musl_lookup(const HostentRequest& req) {
  int* herr = req.herr;
  addrinfo hints = {};
  hints.ai_family = req.af;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_CANONNAME;
  addrinfo* res = nullptr;
  switch (resolve_addrinfo(req.name, nullptr, &hints, &res, req.exchange, req.trace)) {
    case 0: break;
    case kLetLibcAnswer: return kHostentLibc;
    case EAI_NONAME: *herr = HOST_NOT_FOUND; return libc_release() >= release(1, 2, 4) ? 0 : ENOENT;
    case EAI_NODATA: *herr = NO_DATA; return 0;
    case EAI_AGAIN: *herr = TRY_AGAIN; return EAGAIN;
    case EAI_MEMORY:
    case EAI_SYSTEM: *herr = NO_RECOVERY; return errno;
    default: *herr = NO_RECOVERY; return EBADMSG;
  }
  IpAddr addrs[kMaxGaiAddrs];
  size_t n = 0;
  for (const addrinfo* ai = res; ai && n < kMaxGaiAddrs; ai = ai->ai_next)
    addrs[n++] = ip_from_sockaddr(ai->ai_addr);
  const char* names[2] = {res->ai_canonname ? res->ai_canonname : req.name, req.name};
  int rc = musl_hostent({req.af, names, 2, addrs, n}, req.h, req.buf, req.len);
  if (rc == 0) *req.result = req.h;
  gai_free(kLibc, res);
  return rc;
}

}  // namespace

int resolve_hostent(const HostentRequest& req) {
  *req.result = nullptr;
  // NULL, "" and other families: rare enough to leave to libc as they are.
  if (!req.name || !*req.name || (req.af != AF_INET && req.af != AF_INET6)) return kHostentLibc;
  return kLibc == Dialect::musl ? musl_lookup(req) : glibc_lookup(req);
}

}  // namespace rk8s
