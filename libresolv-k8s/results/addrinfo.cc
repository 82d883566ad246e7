// getaddrinfo around the lookup, per dialect: glibc 2.36's getaddrinfo and
// gaih_inet, musl 1.2.3's getaddrinfo, __lookup_serv and __lookup_name.
#include "results/addrinfo.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "results/sort.h"

namespace rk8s {
namespace {

// glibc's IDN flags; musl's headers do not have them.
constexpr int kAiIdn = 0x0040, kAiDeprecatedIdn = 0x0300;

constexpr uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool is_mapped(const GaiAddr& a) { return a.family == AF_INET6 && memcmp(a.addr, kMapped, 12) == 0; }

GaiAddr mapped(const GaiAddr& v4) {
  GaiAddr a;
  a.family = AF_INET6;
  memcpy(a.addr, kMapped, 12);
  memcpy(a.addr + 12, v4.addr, 4);
  return a;
}

// ---- services ----

// glibc's gaih_inet_typeproto: the order results come in.
struct TypeProto {
  int socktype, protocol;
  bool any_protocol;  // raw: the caller's protocol goes through
  bool no_service;
  bool by_default;    // listed when hints give neither socktype nor protocol
  const char* name;
};
constexpr TypeProto kTypeProtos[] = {
    {SOCK_STREAM, IPPROTO_TCP, false, false, true, "tcp"},
    {SOCK_DGRAM, IPPROTO_UDP, false, false, true, "udp"},
    {SOCK_DCCP, IPPROTO_DCCP, false, false, false, "dccp"},
    {SOCK_DGRAM, IPPROTO_UDPLITE, false, false, false, "udplite"},
    {SOCK_STREAM, IPPROTO_SCTP, false, false, false, "sctp"},
    {SOCK_SEQPACKET, IPPROTO_SCTP, false, false, false, "sctp"},
    {SOCK_RAW, 0, true, true, true, "raw"},
};

bool fits(const TypeProto& tp, int socktype, int protocol) {
  return (socktype == 0 || socktype == tp.socktype) &&
         (protocol == 0 || tp.any_protocol || protocol == tp.protocol);
}

void push_serv(GaiPlan& plan, const TypeProto& tp, int protocol, uint16_t port) {
  plan.servs.push(GaiServ{tp.socktype, tp.any_protocol ? protocol : tp.protocol, port});
}

bool glibc_serv_port(const char* name, const TypeProto& tp, uint16_t& port) {
  struct servent se, *found = nullptr;
  char buf[4096];
  if (getservbyname_r(name, tp.name, &se, buf, sizeof buf, &found) != 0 || !found) return false;
  port = ntohs(uint16_t(found->s_port));
  return true;
}

// get_servtuples: num < 0 means the service is a name.
int glibc_services(GaiPlan& plan, const char* service, int num, int socktype, int protocol) {
  const TypeProto* only = nullptr;
  if (socktype || protocol) {
    for (const TypeProto& tp : kTypeProtos)
      if (fits(tp, socktype, protocol)) {
        only = &tp;
        break;
      }
    if (!only) return socktype ? EAI_SOCKTYPE : EAI_SERVICE;
  }
  if (service && only && only->no_service) return EAI_SERVICE;
  if (!service || num >= 0) {
    uint16_t port = uint16_t(service ? num : 0);
    if (only) {
      push_serv(plan, *only, protocol, port);
    } else {
      for (const TypeProto& tp : kTypeProtos)
        if (tp.by_default) push_serv(plan, tp, protocol, port);
    }
    return 0;
  }
  uint16_t port;
  if (only) {
    if (!glibc_serv_port(service, *only, port)) return EAI_SERVICE;
    push_serv(plan, *only, protocol, port);
    return 0;
  }
  for (const TypeProto& tp : kTypeProtos)
    if (!tp.no_service && glibc_serv_port(service, tp, port)) push_serv(plan, tp, protocol, port);
  return plan.servs.count ? 0 : EAI_SERVICE;
}

// musl reads /etc/services with fgets into 128 bytes: a longer line is
// read as several.
void musl_services_line(GaiPlan& plan, char* line, const char* name, int protocol) {
  size_t l = strlen(name);
  char* p = strchr(line, '#');
  if (p) *p++ = '\n', *p = 0;
  for (p = line; (p = strstr(p, name)); ++p) {
    if (p > line && !isspace((unsigned char)p[-1])) continue;
    if (p[l] && !isspace((unsigned char)p[l])) continue;
    break;
  }
  if (!p) return;
  for (p = line; *p && !isspace((unsigned char)*p); ++p) {}
  char* z;
  unsigned long port = strtoul(p, &z, 10);
  if (port > 65535 || z == p) return;
  if (!strncmp(z, "/udp", 4) && protocol != IPPROTO_TCP)
    plan.servs.push(GaiServ{SOCK_DGRAM, IPPROTO_UDP, uint16_t(port)});
  if (!strncmp(z, "/tcp", 4) && protocol != IPPROTO_UDP)
    plan.servs.push(GaiServ{SOCK_STREAM, IPPROTO_TCP, uint16_t(port)});
}

int musl_services_file(GaiPlan& plan, const char* name, int protocol) {
  int fd = open("/etc/services", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? EAI_SERVICE : EAI_SYSTEM;
  char buf[1024], line[128];
  size_t have = 0, used = 0, len = 0;
  bool eof = false;
  while (plan.servs.count < 2) {
    if (used == have && !eof) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) eof = true;
      have = n > 0 ? size_t(n) : 0;
      used = 0;
    }
    if (used < have) {
      char c = buf[used++];
      line[len++] = c;
      if (c != '\n' && len < sizeof line - 1) continue;
    }
    if (len == 0) break;
    line[len] = 0;
    len = 0;
    musl_services_line(plan, line, name, protocol);
  }
  close(fd);
  return plan.servs.count ? 0 : EAI_SERVICE;
}

// __lookup_serv.
int musl_services(GaiPlan& plan, const char* name, int socktype, int protocol, int flags) {
  switch (socktype) {
    case SOCK_STREAM:
      if (protocol == 0) protocol = IPPROTO_TCP;
      if (protocol != IPPROTO_TCP) return EAI_SERVICE;
      break;
    case SOCK_DGRAM:
      if (protocol == 0) protocol = IPPROTO_UDP;
      if (protocol != IPPROTO_UDP) return EAI_SERVICE;
      break;
    case 0:
      break;
    default:
      if (name) return EAI_SERVICE;
      plan.servs.push(GaiServ{socktype, protocol, 0});
      return 0;
  }
  unsigned long port = 0;
  char* z = const_cast<char*>("");
  if (name) {
    if (!*name) return EAI_SERVICE;
    port = strtoul(name, &z, 10);
  }
  if (*z) return flags & AI_NUMERICSERV ? EAI_NONAME : musl_services_file(plan, name, protocol);
  if (port > 65535) return EAI_SERVICE;
  if (protocol != IPPROTO_UDP) plan.servs.push(GaiServ{SOCK_STREAM, IPPROTO_TCP, uint16_t(port)});
  if (protocol != IPPROTO_TCP) plan.servs.push(GaiServ{SOCK_DGRAM, IPPROTO_UDP, uint16_t(port)});
  return 0;
}

// ---- hosts without a lookup ----

// inet_pton for the part of `name` before a '%'; false if not IPv6.
bool parse_ipv6_prefix(const char* name, const char* percent, uint8_t (&out)[16]) {
  char tmp[64];
  size_t n = percent ? size_t(percent - name) : strlen(name);
  if (n >= sizeof tmp) return false;
  memcpy(tmp, name, n);
  tmp[n] = 0;
  return inet_pton(AF_INET6, tmp, out) == 1;
}

bool is_linklocal(const uint8_t* a) { return a[0] == 0xfe && (a[1] & 0xc0) == 0x80; }
bool is_mc_linklocal(const uint8_t* a) { return a[0] == 0xff && (a[1] & 0xf) == 2; }
bool is_mc_nodelocal(const uint8_t* a) { return a[0] == 0xff && (a[1] & 0xf) == 1; }

// __inet6_scopeid_pton.
bool glibc_scope_id(const uint8_t* a, const char* scope, uint32_t& out) {
  if (is_linklocal(a) || is_mc_nodelocal(a) || is_mc_linklocal(a)) {
    if ((out = if_nametoindex(scope))) return true;
  }
  if (!isdigit((unsigned char)scope[0])) return false;
  char* end;
  unsigned long long n = strtoull(scope, &end, 10);
  out = uint32_t(n);
  return *end == 0 && n <= 0xffffffffu;
}

// text_to_binary_address: 0 with *found set when numeric, else 0 or an error.
int glibc_numeric(const GaiPlan& plan, const char* name, GaiAddr& a, bool& found) {
  found = false;
  if (parse_ipv4_aton(name, a.addr)) {
    a.family = AF_INET;
    if (plan.family == AF_INET6) {
      if (!(plan.flags & AI_V4MAPPED)) return EAI_ADDRFAMILY;
      a = mapped(a);
    }
    found = true;
    return 0;
  }
  const char* percent = strchr(name, '%');
  if (parse_ipv6_prefix(name, percent, a.addr)) {
    a.family = AF_INET6;
    if (plan.family == AF_INET) {
      if (!is_mapped(a)) return EAI_ADDRFAMILY;
      memcpy(a.addr, a.addr + 12, 4);
      a.family = AF_INET;
    }
    if (percent && !glibc_scope_id(a.addr, percent + 1, a.scope_id)) return EAI_NONAME;
    found = true;
    return 0;
  }
  return plan.flags & AI_NUMERICHOST ? EAI_NONAME : 0;
}

// __lookup_ipliteral: 1 numeric, 0 not numeric, or an error.
int musl_numeric(const char* name, int family, GaiAddr& a) {
  if (parse_ipv4_aton(name, a.addr)) {
    if (family == AF_INET6) return EAI_NONAME;
    a.family = AF_INET;
    return 1;
  }
  const char* percent = strchr(name, '%');
  if (!parse_ipv6_prefix(name, percent, a.addr)) return 0;
  if (family == AF_INET) return EAI_NONAME;
  a.family = AF_INET6;
  if (percent) {
    const char* p = percent + 1;
    char* z = const_cast<char*>(percent);
    unsigned long long id = 0;
    if (isdigit((unsigned char)*p)) id = strtoull(p, &z, 10);
    if (*z) {
      if (!is_linklocal(a.addr) && !is_mc_linklocal(a.addr)) return EAI_NONAME;
      if (!(id = if_nametoindex(p))) return EAI_NONAME;
    }
    if (id > 0xffffffffu) return EAI_NONAME;
    a.scope_id = uint32_t(id);
  }
  return 1;
}

// The addresses for node NULL: glibc lists IPv6 first, musl IPv4 first.
size_t wildcard_addrs(const GaiPlan& plan, int family, GaiAddr (&out)[2]) {
  bool passive = plan.flags & AI_PASSIVE;
  GaiAddr v4, v6;
  v4.family = AF_INET;
  v6.family = AF_INET6;
  if (!passive) {
    v4.addr[0] = 127, v4.addr[3] = 1;
    v6.addr[15] = 1;
  }
  size_t n = 0;
  bool glibc = plan.dialect == Dialect::glibc;
  if (glibc && family != AF_INET) out[n++] = v6;
  if (family != AF_INET6) out[n++] = v4;
  if (!glibc && family != AF_INET) out[n++] = v6;
  return n;
}

// ---- AI_ADDRCONFIG ----

// glibc's __check_pf: any address other than 127.0.0.1 / ::1.
void glibc_seen_families(bool& v4, bool& v6) {
  struct ifaddrs* list;
  if (getifaddrs(&list) != 0) {
    v4 = v6 = true;
    return;
  }
  v4 = v6 = false;
  for (struct ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr) continue;
    if (i->ifa_addr->sa_family == AF_INET) {
      auto* sin = reinterpret_cast<sockaddr_in*>(i->ifa_addr);
      v4 |= sin->sin_addr.s_addr != htonl(INADDR_LOOPBACK);
    } else if (i->ifa_addr->sa_family == AF_INET6) {
      auto* sin6 = reinterpret_cast<sockaddr_in6*>(i->ifa_addr);
      v6 |= !IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
    }
  }
  freeifaddrs(list);
}

int glibc_addrconfig(GaiPlan& plan) {
  bool v4, v6;
  glibc_seen_families(v4, v6);
  if (plan.family == AF_UNSPEC) {
    if (v4 != v6) plan.family = v4 ? AF_INET : AF_INET6;
    return 0;
  }
  return (plan.family == AF_INET && !v4) || (plan.family == AF_INET6 && !v6) ? EAI_NONAME : 0;
}

// musl: a family is configured when a UDP socket can connect to its loopback.
int musl_addrconfig(GaiPlan& plan) {
  static constexpr int kFamilies[2] = {AF_INET, AF_INET6};
  for (int i = 0; i < 2; ++i) {
    if (plan.family == kFamilies[1 - i]) continue;
    GaiAddr lo;
    lo.family = uint8_t(kFamilies[i]);
    if (i == 0) lo.addr[0] = 127, lo.addr[3] = 1;
    else lo.addr[15] = 1;
    sockaddr_in6 sa = {};
    socklen_t len = sizeof(sockaddr_in6);
    if (i == 0) {
      auto* sin = reinterpret_cast<sockaddr_in*>(&sa);
      sin->sin_family = AF_INET;
      sin->sin_port = 65535;
      memcpy(&sin->sin_addr, lo.addr, 4);
      len = sizeof(sockaddr_in);
    } else {
      sa.sin6_family = AF_INET6;
      sa.sin6_port = 65535;
      memcpy(&sa.sin6_addr, lo.addr, 16);
    }
    int s = socket(kFamilies[i], SOCK_CLOEXEC | SOCK_DGRAM, IPPROTO_UDP);
    if (s >= 0) {
      int r = connect(s, reinterpret_cast<sockaddr*>(&sa), len);
      int saved = errno;
      close(s);
      errno = saved;
      if (r == 0) continue;
    }
    switch (errno) {
      case EADDRNOTAVAIL: case EAFNOSUPPORT: case EHOSTUNREACH: case ENETDOWN: case ENETUNREACH:
        break;
      default:
        return EAI_SYSTEM;
    }
    if (plan.family == kFamilies[i]) return EAI_NONAME;
    plan.family = kFamilies[1 - i];
  }
  return 0;
}

// ---- building the list ----

void fill_sockaddr(const GaiAddr& a, uint16_t port, struct sockaddr* sa) {
  if (a.family == AF_INET) {
    auto* sin = reinterpret_cast<sockaddr_in*>(sa);
    sin->sin_family = AF_INET;
    sin->sin_port = htons(port);
    memcpy(&sin->sin_addr, a.addr, 4);
  } else {
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(sa);
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(port);
    memcpy(&sin6->sin6_addr, a.addr, 16);
    sin6->sin6_scope_id = a.scope_id;
  }
}

socklen_t sockaddr_len(const GaiAddr& a) {
  return a.family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
}

// Entry e of the expansion is address e / servs, service e % servs; glibc
// sorts the entries, not the addresses.
bool glibc_sorted_entries(const GaiPlan& plan, const GaiAddr* addrs, size_t n, size_t* order) {
  size_t ns = plan.servs.count, ne = n * ns;
  SortDest* d = static_cast<SortDest*>(malloc(ne * sizeof(SortDest)));
  if (!d) return false;
  for (size_t i = 0; i < n; ++i) {
    SortDest one;
    one.dst = addrs[i];
    glibc_find_sources(&one, 1);
    for (size_t j = 0; j < ns; ++j) d[i * ns + j] = one;
  }
  GaiConf conf;
  gaiconf_current(conf);
  glibc_sort(conf, d, ne, order);
  free(d);
  return true;
}

// One malloc per entry, ai_addr right after it, canonname on the first
// entry only: glibc's own freeaddrinfo can free it.
int glibc_build(const GaiPlan& plan, const GaiAddr* addrs, size_t n, const char* canon,
                struct addrinfo** res) {
  size_t ns = plan.servs.count, ne = n * ns;
  size_t* order = static_cast<size_t*>(malloc(ne * sizeof(size_t)));
  if (!order) return EAI_MEMORY;
  for (size_t e = 0; e < ne; ++e) order[e] = e;
  if (n > 1 && !glibc_sorted_entries(plan, addrs, n, order)) {
    free(order);
    return EAI_MEMORY;
  }
  struct addrinfo* head = nullptr;
  struct addrinfo** tail = &head;
  for (size_t k = 0; k < ne; ++k) {
    const GaiAddr& a = addrs[order[k] / ns];
    const GaiServ& s = plan.servs[order[k] % ns];
    socklen_t len = sockaddr_len(a);
    auto* ai = static_cast<struct addrinfo*>(calloc(1, sizeof(struct addrinfo) + len));
    if (!ai || (k == 0 && canon && !(ai->ai_canonname = strdup(canon)))) {
      free(ai);
      free(order);
      gai_free(Dialect::glibc, head);
      return EAI_MEMORY;
    }
    ai->ai_flags = plan.flags;
    ai->ai_family = a.family;
    ai->ai_socktype = s.socktype;
    ai->ai_protocol = s.protocol;
    ai->ai_addrlen = len;
    ai->ai_addr = reinterpret_cast<struct sockaddr*>(ai + 1);
    fill_sockaddr(a, s.port, ai->ai_addr);
    *tail = ai;
    tail = &ai->ai_next;
  }
  free(order);
  *res = head;
  return 0;
}

// musl's own layout (struct aibuf in musl's lookup.h): one calloc'd array
// of these, then the canonical name every entry points at. freeaddrinfo
// gets from any entry back to the array through `slot` and frees it when
// `ref` (kept in the first) says every entry was given back, so a sublist
// can be freed on its own. musl's freeaddrinfo and ours free each other's.
struct MuslEntry {
  struct addrinfo ai;
  union {
    struct sockaddr_in sin;
    struct sockaddr_in6 sin6;
  } sa;
  volatile int lock[1];
  short slot, ref;
};

int musl_build(const GaiPlan& plan, const GaiAddr* addrs, size_t n, const char* canon,
               struct addrinfo** res) {
  size_t ns = plan.servs.count, ne = n * ns;
  size_t canon_len = canon ? strlen(canon) : 0;
  auto* out = static_cast<MuslEntry*>(calloc(1, ne * sizeof(MuslEntry) + canon_len + 1));
  if (!out) return EAI_MEMORY;
  char* shared_canon = canon_len ? reinterpret_cast<char*>(out + ne) : nullptr;
  if (shared_canon) memcpy(shared_canon, canon, canon_len + 1);
  for (size_t k = 0; k < ne; ++k) {
    const GaiAddr& a = addrs[k / ns];
    const GaiServ& s = plan.servs[k % ns];
    MuslEntry& e = out[k];
    e.slot = short(k);
    e.ai.ai_family = a.family;
    e.ai.ai_socktype = s.socktype;
    e.ai.ai_protocol = s.protocol;
    e.ai.ai_addrlen = sockaddr_len(a);
    e.ai.ai_addr = reinterpret_cast<struct sockaddr*>(&e.sa);
    e.ai.ai_canonname = shared_canon;
    fill_sockaddr(a, s.port, e.ai.ai_addr);
    if (k) out[k - 1].ai.ai_next = &e.ai;
  }
  out[0].ref = short(ne);
  *res = &out[0].ai;
  return 0;
}

int build(const GaiPlan& plan, GaiAddr* addrs, size_t n, const char* canon, struct addrinfo** res) {
  if (n == 0) return EAI_NONAME;
  return plan.dialect == Dialect::glibc ? glibc_build(plan, addrs, n, canon, res)
                                        : musl_build(plan, addrs, n, canon, res);
}

// What glibc keeps of the lookup for the requested family (get_nss_addresses
// and generate_addrinfo); returns the new count.
size_t glibc_filter(const GaiPlan& plan, GaiAddr* a, size_t n) {
  bool any6 = false;
  for (size_t i = 0; i < n; ++i) any6 |= a[i].family == AF_INET6;
  bool mapping = plan.family == AF_INET6 && (plan.flags & AI_V4MAPPED);
  // With IPv6 answers and no AI_ALL, A was never asked and mapped AAAA are dropped.
  bool v6_only = mapping && any6 && !(plan.flags & AI_ALL);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    GaiAddr x = a[i];
    if (mapping && x.family == AF_INET && !v6_only) x = mapped(x);
    if (plan.family != AF_UNSPEC && x.family != plan.family) continue;
    if (v6_only && is_mapped(x)) continue;
    a[k++] = x;
  }
  return k;
}

// musl's AI_V4MAPPED filter (in __lookup_name) and its sort.
size_t musl_filter_sort(const GaiPlan& plan, GaiAddr* a, size_t n) {
  if (n > kMaxGaiAddrs) n = kMaxGaiAddrs;
  bool mapping = plan.family == AF_INET6 && (plan.flags & AI_V4MAPPED);
  bool any6 = false;
  for (size_t i = 0; i < n; ++i) any6 |= a[i].family == AF_INET6;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (mapping && any6 && !(plan.flags & AI_ALL) && a[i].family != AF_INET6) continue;
    a[k++] = mapping && a[i].family == AF_INET ? mapped(a[i]) : a[i];
  }
  bool all_v4 = true;
  for (size_t i = 0; i < k; ++i) all_v4 &= a[i].family == AF_INET;
  if (k >= 2 && plan.family != AF_INET && !all_v4) musl_sort(a, k);
  return k;
}

bool is_ascii(const char* s) {
  for (; *s; s++)
    if (static_cast<unsigned char>(*s) >= 0x80) return false;
  return true;
}

int glibc_start(const char* node, const char* service, const struct addrinfo* hints,
                GaiPlan& plan, struct addrinfo** res) {
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
  plan.node = node;
  plan.flags = flags;
  plan.family = family;
  int rc;
  if ((flags & AI_ADDRCONFIG) && (rc = glibc_addrconfig(plan))) return rc;
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
  if ((rc = glibc_services(plan, service, num, hints ? hints->ai_socktype : 0,
                           hints ? hints->ai_protocol : 0)))
    return rc;
  GaiAddr addrs[2];
  if (!node) return build(plan, addrs, wildcard_addrs(plan, family, addrs), nullptr, res);
  // AI_IDN leaves an ASCII name as it is (glibc's __idna_to_dns_encoding);
  // anything else needs libidn2, which only libc has.
  if ((flags & kAiIdn) && !is_ascii(node)) return kGaiLibc;
  bool numeric;
  if ((rc = glibc_numeric(plan, node, addrs[0], numeric))) return rc;
  if (numeric) return build(plan, addrs, 1, flags & AI_CANONNAME ? node : nullptr, res);
  plan.want_aaaa = family != AF_INET;
  plan.want_a = family != AF_INET6 || (flags & AI_V4MAPPED);
  plan.a_only_without_aaaa = family == AF_INET6 && (flags & (AI_V4MAPPED | AI_ALL)) == AI_V4MAPPED;
  return kGaiResolve;
}

int musl_start(const char* node, const char* service, const struct addrinfo* hints, GaiPlan& plan,
               struct addrinfo** res) {
  if (!node && !service) return EAI_NONAME;
  int flags = 0, socktype = 0, protocol = 0;
  plan.family = AF_UNSPEC;
  if (hints) {
    flags = hints->ai_flags;
    plan.family = hints->ai_family;
    socktype = hints->ai_socktype;
    protocol = hints->ai_protocol;
    if (flags & ~(AI_PASSIVE | AI_CANONNAME | AI_NUMERICHOST | AI_V4MAPPED | AI_ALL |
                  AI_ADDRCONFIG | AI_NUMERICSERV))
      return EAI_BADFLAGS;
    if (plan.family != AF_INET && plan.family != AF_INET6 && plan.family != AF_UNSPEC)
      return EAI_FAMILY;
  }
  plan.node = node;
  plan.flags = flags;
  int rc;
  if ((flags & AI_ADDRCONFIG) && (rc = musl_addrconfig(plan))) return rc;
  if ((rc = musl_services(plan, service, socktype, protocol, flags))) return rc;
  if (node && strnlen(node, 255) - 1 >= 254) return EAI_NONAME;
  // AF_INET6 with AI_V4MAPPED looks up both families, then filters.
  int family = plan.family == AF_INET6 && (flags & AI_V4MAPPED) ? AF_UNSPEC : plan.family;
  GaiAddr addrs[2];
  if (!node) return gai_finish(plan, addrs, wildcard_addrs(plan, family, addrs), nullptr, res);
  rc = musl_numeric(node, family, addrs[0]);
  if (rc == 1) return gai_finish(plan, addrs, 1, nullptr, res);
  if (rc < 0) return rc;
  if (flags & AI_NUMERICHOST) return EAI_NONAME;
  plan.want_a = family != AF_INET6;
  plan.want_aaaa = family != AF_INET;
  return kGaiResolve;
}

}  // namespace

int gai_finish(const GaiPlan& plan, const GaiAddr* addrs, size_t count, const char* canon,
               struct addrinfo** res) {
  GaiAddr* a = static_cast<GaiAddr*>(malloc((count ? count : 1) * sizeof(GaiAddr)));
  if (!a) return EAI_MEMORY;
  memcpy(a, addrs, count * sizeof(GaiAddr));
  if (!canon) canon = plan.node;
  size_t n;
  if (plan.dialect == Dialect::glibc) {
    n = glibc_filter(plan, a, count);
    if (!(plan.flags & AI_CANONNAME)) canon = nullptr;
  } else {
    n = musl_filter_sort(plan, a, count);
  }
  int rc = build(plan, a, n, canon, res);
  free(a);
  return rc;
}

void gai_free(Dialect dialect, struct addrinfo* ai) {
  if (!ai) return;
  if (dialect == Dialect::glibc) {
    while (ai) {
      struct addrinfo* next = ai->ai_next;
      free(ai->ai_canonname);
      free(ai);
      ai = next;
    }
    return;
  }
  short count = 1;
  for (; ai->ai_next; ai = ai->ai_next) ++count;
  auto* last = reinterpret_cast<MuslEntry*>(ai);  // ai is MuslEntry's first member
  MuslEntry* first = last - last->slot;
  if (__atomic_sub_fetch(&first->ref, count, __ATOMIC_ACQ_REL) == 0) free(first);
}

bool parse_ipv4_aton(const char* s, uint8_t out[4]) {
  static constexpr unsigned long kMax[4] = {0xffffffff, 0xffffff, 0xffff, 0xff};
  uint8_t bytes[4] = {};
  size_t parts = 0;
  for (;;) {
    if (!isdigit((unsigned char)*s)) return false;
    char* end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 0);
    if (errno == ERANGE || v > 0xffffffffu) return false;
    s = end;
    if (*s != '.') {
      if (*s || v > kMax[parts]) return false;
      for (size_t i = 3; v; --i, v >>= 8) bytes[i] = uint8_t(v);
      memcpy(out, bytes, 4);
      return true;
    }
    if (parts == 3 || v > 0xff) return false;
    bytes[parts++] = uint8_t(v);
    ++s;
  }
}

int gai_start(Dialect dialect, const char* node, const char* service, const struct addrinfo* hints,
              GaiPlan& plan, struct addrinfo** res) {
  plan = GaiPlan{};
  plan.dialect = dialect;
  return dialect == Dialect::glibc ? glibc_start(node, service, hints, plan, res)
                                   : musl_start(node, service, hints, plan, res);
}

}  // namespace rk8s
