// gethostbyname2_r for glibc and musl (see hostent.h).
#include "results/hostent.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "results/addrinfo.h"
#include "files/files.h"
#include "files/hosts.h"

namespace rk8s {
namespace {

size_t addr_len(int family) { return family == AF_INET6 ? 16 : 4; }

// glibc's alloc_buffer: once an allocation fails, every later one fails.
struct Bump {
  char* p;
  char* end;
  bool failed = false;

  char* take(size_t n, size_t align) {
    uintptr_t at = (uintptr_t(p) + align - 1) & ~uintptr_t(align - 1);
    if (failed || at > uintptr_t(end) || n > uintptr_t(end) - at) {
      failed = true;
      return nullptr;
    }
    p = reinterpret_cast<char*>(at + n);
    return reinterpret_cast<char*>(at);
  }
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || ((c | 32) >= 'a' && (c | 32) <= 'f'); }

int glibc_found(const HostentParts& p, hostent* h, char* buf, size_t len, hostent** result,
                int* herr) {
  if (glibc_hostent(p, h, buf, len) == ERANGE) {
    *herr = NETDB_INTERNAL;
    return ERANGE;
  }
  *result = h;
  return 0;
}

// __nss_hostname_digits_dots: true when it answered, with `rc`. It asks
// for room before it knows whether the name is numeric.
bool glibc_numeric(const char* name, int af, hostent* h, char* buf, size_t len, hostent** result,
                   int* herr, int& rc) {
  if (!is_hex(name[0]) && name[0] != ':') return false;
  size_t n = strlen(name);
  rc = 0;
  if (len < 16 + 3 * sizeof(char*) + n + 1) {
    *herr = NETDB_INTERNAL;
    rc = ERANGE;
    return true;
  }
  uint8_t addr[16] = {};
  bool ok;
  if (is_digit(name[0]) && strspn(name, "0123456789.") == n && name[n - 1] != '.') {
    ok = af == AF_INET ? parse_ipv4_aton(name, addr) : inet_pton(AF_INET6, name, addr) > 0;
  } else if (strchr(name, ':')) {
    if (af == AF_INET6 && (strspn(name, "0123456789abcdefABCDEF:.") != n || name[n - 1] == '.'))
      return false;
    ok = af == AF_INET6 && inet_pton(AF_INET6, name, addr) > 0;
  } else {
    return false;
  }
  if (!ok) {
    *herr = HOST_NOT_FOUND;
    return true;
  }
  glibc_numeric_hostent(af, addr, name, h, buf, len);
  *herr = NETDB_SUCCESS;
  *result = h;
  return true;
}

// nss_files for one family: true when the name is there (or libc must
// answer: rc = kHostentLibc).
bool glibc_files(const char* name, int af, hostent* h, char* buf, size_t len, hostent** result,
                 int* herr, int& rc) {
  HostsText hosts;
  if (!hosts.ok()) return false;
  HostsQuery q;
  q.family = af;
  q.multi = hosts_multi();
  HostsResult hr;
  hosts_lookup(q, hosts.text(), str(name), hr);
  if (!hr.complete) return rc = kHostentLibc, true;
  if (!hr.found()) return false;
  const char* names[kMaxHostsAliases + 1];
  for (size_t i = 0; i < hr.alias_count(); i++) names[i] = hr.alias(i);
  names[hr.alias_count()] = hr.canon();
  uint8_t addrs[kMaxHostsAddrs][16];
  for (size_t i = 0; i < hr.addrs.count; i++) memcpy(addrs[i], hr.addrs[i].addr, 16);
  rc = glibc_found(HostentParts{af, names, hr.alias_count() + 1, addrs, hr.addrs.count}, h, buf,
                   len, result, herr);
  return true;
}

// getanswer_r's names: the host names among the question and the CNAME
// targets; the question must be one.
int glibc_dns_found(const LookupResult& r, int af, hostent* h, char* buf, size_t len,
                    hostent** result, int* herr) {
  const AliasNames& al = r.aliases;
  if (al.overflow) return kHostentLibc;
  const char* names[17];
  size_t n = 0;
  for (size_t i = 0; i < al.at.count; i++)
    if (al.host_name >> i & 1) names[n++] = al[i];
  uint8_t addrs[kMaxAddresses][16];
  for (size_t i = 0; i < r.addrs.count; i++) memcpy(addrs[i], r.addrs[i].addr, 16);
  *herr = NETDB_SUCCESS;
  return glibc_found(HostentParts{af, names, n, addrs, r.addrs.count}, h, buf, len, result, herr);
}

// gethostbyname3_r and the nss loop: NOTFOUND returns 0, TRYAGAIN EAGAIN,
// UNAVAIL (the walk's last query unanswered) errno: EAGAIN with TRY_AGAIN,
// else the errno it had before (0 in practice).
int glibc_dns(const char* name, int af, bool then_libc, hostent* h, char* buf, size_t len,
              hostent** result, int* herr, ExchangeFn exchange, ResolveTrace* trace) {
  Config conf;
  Plan plan;
  int rc = dns_plan(name, conf, plan, trace);
  if (rc == kLetLibcAnswer || (rc != 0 && then_libc)) return kHostentLibc;
  if (rc != 0) {  // check_name
    *herr = HOST_NOT_FOUND;
    return 0;
  }
  uint16_t qtype = af == AF_INET ? dns::kTypeA : dns::kTypeAAAA;
  LookupResult r;
  dns_lookup(conf, plan, &qtype, 1, exchange, r, trace);
  bool question_ok = r.aliases.at.count && (r.aliases.host_name & 1);
  if (r.status == Status::found && question_ok) return glibc_dns_found(r, af, h, buf, len, result, herr);
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

int glibc_lookup(const char* name, int af, hostent* h, char* buf, size_t len, hostent** result,
                 int* herr, ExchangeFn exchange, ResolveTrace* trace) {
  int rc;
  if (glibc_numeric(name, af, h, buf, len, result, herr, rc)) return rc;
  HostsPlan sources = current_hosts_plan();
  if (sources == HostsPlan::libc) return kHostentLibc;
  bool files = sources == HostsPlan::files_dns || sources == HostsPlan::files_dns_then_libc;
  if (!files || !glibc_files(name, af, h, buf, len, result, herr, rc)) {
    bool then_libc =
        sources == HostsPlan::files_dns_then_libc || sources == HostsPlan::dns_then_libc;
    rc = glibc_dns(name, af, then_libc, h, buf, len, result, herr, exchange, trace);
  }
  if (rc != kHostentLibc) count_lookup();
  return rc;
}

// musl's gethostbyname2_r: __lookup_name(name, af, AI_CANONNAME) is what
// getaddrinfo asks for one socket type.
int musl_lookup(const char* name, int af, hostent* h, char* buf, size_t len, hostent** result,
                int* herr, ExchangeFn exchange, ResolveTrace* trace) {
  addrinfo hints = {};
  hints.ai_family = af;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_CANONNAME;
  addrinfo* res = nullptr;
  switch (resolve_addrinfo(name, nullptr, &hints, &res, exchange, trace)) {
    case 0: break;
    case kLetLibcAnswer: return kHostentLibc;
    case EAI_NONAME: *herr = HOST_NOT_FOUND; return ENOENT;
    case EAI_AGAIN: *herr = TRY_AGAIN; return EAGAIN;
    case EAI_MEMORY:
    case EAI_SYSTEM: *herr = NO_RECOVERY; return errno;
    default: *herr = NO_RECOVERY; return EBADMSG;
  }
  uint8_t addrs[kMaxGaiAddrs][16];
  size_t n = 0;
  for (const addrinfo* ai = res; ai && n < kMaxGaiAddrs; ai = ai->ai_next, n++) {
    if (ai->ai_family == AF_INET6)
      memcpy(addrs[n], &reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr, 16);
    else
      memcpy(addrs[n], &reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr, 4);
  }
  const char* names[2] = {res->ai_canonname ? res->ai_canonname : name, name};
  int rc = musl_hostent(HostentParts{af, names, 2, addrs, n}, h, buf, len);
  if (rc == 0) *result = h;
  gai_free(kLibc, res);
  return rc;
}

}  // namespace

int glibc_hostent(const HostentParts& p, hostent* h, char* buf, size_t len) {
  size_t size = addr_len(p.family);
  h->h_addrtype = p.family;
  h->h_length = int(size);
  Bump b{buf, buf + len};
  char* first_name = nullptr;
  for (size_t i = 0; i < p.name_count; i++) {
    size_t n = strlen(p.names[i]) + 1;
    char* s = b.take(n, 1);
    if (s) memcpy(s, p.names[i], n);
    if (i == 0) first_name = s;
  }
  char* first_addr = nullptr;
  for (size_t i = 0; i < p.addr_count; i++) {
    char* a = b.take(size, 4);
    if (a) memcpy(a, p.addrs[i], size);
    if (i == 0) first_addr = a;
  }
  auto* addr_list = reinterpret_cast<char**>(b.take((p.addr_count + 1) * sizeof(char*), alignof(char*)));
  auto* aliases = reinterpret_cast<char**>(b.take(p.name_count * sizeof(char*), alignof(char*)));
  if (b.failed) return ERANGE;
  for (size_t i = 0; i < p.addr_count; i++) addr_list[i] = first_addr + i * size;
  addr_list[p.addr_count] = nullptr;
  char* s = first_name;
  for (size_t i = 0; i + 1 < p.name_count; i++, s += strlen(s) + 1) aliases[i] = s;
  aliases[p.name_count - 1] = nullptr;
  h->h_name = s;
  h->h_aliases = aliases;
  h->h_addr_list = addr_list;
  return 0;
}

int glibc_numeric_hostent(int family, const uint8_t* addr, const char* name, hostent* h,
                          char* buf, size_t len) {
  size_t n = strlen(name) + 1;
  size_t need = 16 + 3 * sizeof(char*) + n;
  if (len < need) return ERANGE;
  memset(buf, 0, need);
  memcpy(buf, addr, addr_len(family));
  // glibc's layout at whatever alignment the caller's buffer has: the
  // pointers are copied in, not stored through a misaligned char**.
  char* pointers[3] = {buf, nullptr, nullptr};  // the address list, then the alias list
  memcpy(buf + 16, pointers, sizeof pointers);
  auto* list = reinterpret_cast<char**>(buf + 16);
  h->h_name = static_cast<char*>(memcpy(buf + 16 + 3 * sizeof(char*), name, n));
  h->h_aliases = list + 2;
  h->h_addr_list = list;
  h->h_addrtype = family;
  h->h_length = int(addr_len(family));
  return 0;
}

int musl_hostent(const HostentParts& p, hostent* h, char* buf, size_t len) {
  const char* canon = p.names[0];
  const char* name = p.names[1];
  size_t size = addr_len(p.family);
  h->h_addrtype = p.family;
  h->h_length = int(size);
  size_t align = -uintptr_t(buf) & (sizeof(char*) - 1);
  size_t need = 4 * sizeof(char*) + (p.addr_count + 1) * (sizeof(char*) + size) +
                strlen(name) + 1 + strlen(canon) + 1 + align;
  if (need > len) return ERANGE;
  buf += align;
  h->h_aliases = reinterpret_cast<char**>(buf);
  buf += 3 * sizeof(char*);
  h->h_addr_list = reinterpret_cast<char**>(buf);
  buf += (p.addr_count + 1) * sizeof(char*);
  for (size_t i = 0; i < p.addr_count; i++, buf += size)
    h->h_addr_list[i] = static_cast<char*>(memcpy(buf, p.addrs[i], size));
  h->h_addr_list[p.addr_count] = nullptr;
  size_t n = strlen(canon) + 1;
  h->h_name = h->h_aliases[0] = static_cast<char*>(memcpy(buf, canon, n));
  buf += n;
  h->h_aliases[1] = strcmp(canon, name) ? strcpy(buf, name) : nullptr;
  h->h_aliases[2] = nullptr;
  return 0;
}

int resolve_hostent(const char* name, int af, hostent* h, char* buf, size_t len,
                    hostent** result, int* herr, ExchangeFn exchange, ResolveTrace* trace) {
  *result = nullptr;
  // NULL, "" and other families: rare enough to leave to libc as they are.
  if (!name || !*name || (af != AF_INET && af != AF_INET6)) return kHostentLibc;
  return kLibc == Dialect::musl ? musl_lookup(name, af, h, buf, len, result, herr, exchange, trace)
                                : glibc_lookup(name, af, h, buf, len, result, herr, exchange, trace);
}

}  // namespace rk8s
