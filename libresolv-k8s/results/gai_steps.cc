// SPDX-License-Identifier: Apache-2.0
// getaddrinfo before and after the lookup, step by step in each libc's
// order: glibc 2.36's getaddrinfo and gaih_inet, musl 1.2.3's getaddrinfo
// and __lookup_name.
#include "results/gai_steps.h"

#include <stdlib.h>

#include "results/addrconfig.h"
#include "results/list.h"
#include "results/numeric.h"
#include "results/services.h"
#include "results/sort_musl.h"
#include "util/release.h"

namespace rk8s {
namespace {

// glibc's IDN flags; musl's headers do not have them.
constexpr int kAiIdn = 0x0040, kAiDeprecatedIdn = 0x0300;

// What glibc keeps of the lookup for the requested family (get_nss_addresses
// and generate_addrinfo); returns the new count.
size_t glibc_filter(const GaiRequest& req, IpAddr* a, size_t n) {
  bool any6 = false;
  for (size_t i = 0; i < n; ++i) any6 |= a[i].family == AF_INET6;
  bool mapping = req.family == AF_INET6 && (req.flags & AI_V4MAPPED);
  // With IPv6 answers and no AI_ALL, A was never asked and mapped AAAA are dropped.
  bool v6_only = mapping && any6 && !(req.flags & AI_ALL);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    IpAddr x = a[i];
    if (mapping && x.family == AF_INET && !v6_only) x = v4_mapped(x);
    if (req.family != AF_UNSPEC && x.family != req.family) continue;
    if (v6_only && is_v4_mapped(x)) continue;
    a[k++] = x;
  }
  return k;
}

// musl's AI_V4MAPPED filter (in __lookup_name) and its sort.
size_t musl_filter_sort(const GaiRequest& req, IpAddr* a, size_t n) {
  if (n > kMaxGaiAddrs) n = kMaxGaiAddrs;
  bool mapping = req.family == AF_INET6 && (req.flags & AI_V4MAPPED);
  bool any6 = false;
  for (size_t i = 0; i < n; ++i) any6 |= a[i].family == AF_INET6;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (mapping && any6 && !(req.flags & AI_ALL) && a[i].family != AF_INET6) continue;
    a[k++] = mapping && a[i].family == AF_INET ? v4_mapped(a[i]) : a[i];
  }
  bool all_v4 = true;
  for (size_t i = 0; i < k; ++i) all_v4 &= a[i].family == AF_INET;
  if (k >= 2 && req.family != AF_INET && !all_v4) musl_sort(a, k);
  return k;
}

bool is_ascii(const char* s) {
  for (; *s; s++)
    if (static_cast<unsigned char>(*s) >= 0x80) return false;
  return true;
}

int glibc_start(const char* node, const char* service, const struct addrinfo* hints,
                GaiRequest& req, struct addrinfo** res) {
  if (node && node[0] == '*' && !node[1]) node = nullptr;
  if (service && service[0] == '*' && !service[1]) service = nullptr;
  if (!node && !service) return EAI_NONAME;
  int flags = hints ? hints->ai_flags : AI_V4MAPPED | AI_ADDRCONFIG;
  int family = hints ? hints->ai_family : AF_UNSPEC;
  if (flags & ~(AI_PASSIVE | AI_CANONNAME | AI_NUMERICHOST | AI_ADDRCONFIG | AI_V4MAPPED | kAiIdn |
                kAiCanonIdn | kAiDeprecatedIdn | AI_NUMERICSERV | AI_ALL))
    return EAI_BADFLAGS;
  if ((flags & AI_CANONNAME) && !node) return EAI_BADFLAGS;
  if (family != AF_UNSPEC && family != AF_INET && family != AF_INET6) return EAI_FAMILY;
  req.node = node;
  req.flags = flags;
  req.family = family;
  int rc;
  if ((flags & AI_ADDRCONFIG) && (rc = glibc_addrconfig(req))) return rc;
  int num = -1;
  if (service && service[0]) {
    char* end;
    num = int(strtoul(service, &end, 10));  // glibc keeps it in an int
    if (*end) {
      if (flags & AI_NUMERICSERV) return EAI_NONAME;
      num = -1;
    }
  } else {
    service = nullptr;
  }
  if ((rc = glibc_services(req, service, num, hints ? hints->ai_socktype : 0,
                           hints ? hints->ai_protocol : 0)))
    return rc;
  IpAddr addrs[2];
  if (!node) return build_list(req, addrs, wildcard_addrs(req, family, addrs), nullptr, res);
  // AI_IDN leaves an ASCII name as it is (glibc's __idna_to_dns_encoding);
  // anything else needs libidn2, which only libc has.
  if ((flags & kAiIdn) && !is_ascii(node)) return kGaiLibc;
  bool numeric;
  if ((rc = glibc_numeric(req, node, addrs[0], numeric))) return rc;
  if (numeric) return build_list(req, addrs, 1, flags & AI_CANONNAME ? node : nullptr, res);
  req.want_aaaa = family != AF_INET;
  req.want_a = family != AF_INET6 || (flags & AI_V4MAPPED);
  req.a_only_without_aaaa = family == AF_INET6 && (flags & (AI_V4MAPPED | AI_ALL)) == AI_V4MAPPED;
  return kGaiResolve;
}

int musl_start(const char* node, const char* service, const struct addrinfo* hints, GaiRequest& req,
               struct addrinfo** res) {
  if (!node && !service) return EAI_NONAME;
  int flags = 0, socktype = 0, protocol = 0;
  req.family = AF_UNSPEC;
  if (hints) {
    flags = hints->ai_flags;
    req.family = hints->ai_family;
    socktype = hints->ai_socktype;
    protocol = hints->ai_protocol;
    if (flags & ~(AI_PASSIVE | AI_CANONNAME | AI_NUMERICHOST | AI_V4MAPPED | AI_ALL |
                  AI_ADDRCONFIG | AI_NUMERICSERV))
      return EAI_BADFLAGS;
    if (req.family != AF_INET && req.family != AF_INET6 && req.family != AF_UNSPEC)
      return EAI_FAMILY;
  }
  req.node = node;
  req.flags = flags;
  int rc;
  if ((flags & AI_ADDRCONFIG) && (rc = musl_addrconfig(req))) return rc;
  if ((rc = musl_services(req, service, socktype, protocol, flags))) return rc;
  if (node && strnlen(node, 255) - 1 >= 254) return EAI_NONAME;
  // AF_INET6 with AI_V4MAPPED looks up both families, then filters.
  int family = req.family == AF_INET6 && (flags & AI_V4MAPPED) ? AF_UNSPEC : req.family;
  IpAddr addrs[2];
  if (!node) return gai_finish(req, addrs, wildcard_addrs(req, family, addrs), nullptr, res);
  rc = musl_numeric(node, family, req.release, addrs[0]);
  if (rc == 1) return gai_finish(req, addrs, 1, nullptr, res);
  if (rc < 0) return rc;
  if (flags & AI_NUMERICHOST) return EAI_NONAME;
  req.want_a = family != AF_INET6;
  req.want_aaaa = family != AF_INET;
  return kGaiResolve;
}

}  // namespace

int gai_finish(const GaiRequest& req, const IpAddr* addrs, size_t count, const char* canon,
               struct addrinfo** res) {
  if (req.no_family) return EAI_NODATA;
  IpAddr* a = static_cast<IpAddr*>(malloc((count ? count : 1) * sizeof(IpAddr)));
  if (!a) return EAI_MEMORY;
  memcpy(a, addrs, count * sizeof(IpAddr));
  if (!canon) canon = req.node;
  size_t n;
  if (req.dialect == Dialect::glibc) {
    n = glibc_filter(req, a, count);
    if (!(req.flags & AI_CANONNAME)) canon = nullptr;
  } else {
    n = musl_filter_sort(req, a, count);
  }
  int rc = build_list(req, a, n, canon, res);
  free(a);
  return rc;
}

int gai_start(Dialect dialect, const char* node, const char* service, const struct addrinfo* hints,
              GaiRequest& req, struct addrinfo** res) {
  req = GaiRequest{};
  req.dialect = dialect;
  req.release = dialect == kLibc ? libc_release() : reference_release(dialect);
  return dialect == Dialect::glibc ? glibc_start(node, service, hints, req, res)
                                   : musl_start(node, service, hints, req, res);
}

}  // namespace rk8s
