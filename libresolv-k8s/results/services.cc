// SPDX-License-Identifier: Apache-2.0
// Services: the (socktype, protocol, port) list a getaddrinfo result is
// expanded over, from glibc 2.36's gaih_inet_typeproto and get_servtuples
// and musl 1.2.3's __lookup_serv.
#include "results/services.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/text.h"

namespace rk8s {
namespace {

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

void push_serv(GaiRequest& req, const TypeProto& tp, int protocol, uint16_t port) {
  req.servs.push(GaiServ{tp.socktype, tp.any_protocol ? protocol : tp.protocol, port});
}

bool glibc_serv_port(const char* name, const TypeProto& tp, uint16_t& port) {
  struct servent se, *found = nullptr;
  char buf[4096];
  if (getservbyname_r(name, tp.name, &se, buf, sizeof buf, &found) != 0 || !found) return false;
  port = ntohs(uint16_t(found->s_port));
  return true;
}

}  // namespace

// get_servtuples: num < 0 means the service is a name.
int glibc_services(GaiRequest& req, const char* service, int num, int socktype, int protocol) {
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
      push_serv(req, *only, protocol, port);
    } else {
      for (const TypeProto& tp : kTypeProtos)
        if (tp.by_default) push_serv(req, tp, protocol, port);
    }
    return 0;
  }
  uint16_t port;
  if (only) {
    if (!glibc_serv_port(service, *only, port)) return EAI_SERVICE;
    push_serv(req, *only, protocol, port);
    return 0;
  }
  for (const TypeProto& tp : kTypeProtos)
    if (!tp.no_service && glibc_serv_port(service, tp, port)) push_serv(req, tp, protocol, port);
  return req.servs.count ? 0 : EAI_SERVICE;
}

namespace {

// musl reads /etc/services with fgets into 128 bytes: a longer line is
// read as several.
void musl_services_line(GaiRequest& req, char* line, const char* name, int protocol) {
  size_t l = strlen(name);
  char* p = strchr(line, '#');
  if (p) *p++ = '\n', *p = 0;
  for (p = line; (p = strstr(p, name)); ++p) {
    if (p > line && !is_space(p[-1])) continue;
    if (p[l] && !is_space(p[l])) continue;
    break;
  }
  if (!p) return;
  for (p = line; *p && !is_space(*p); ++p) {}
  char* z;
  unsigned long port = strtoul(p, &z, 10);
  if (port > 65535 || z == p) return;
  if (!strncmp(z, "/udp", 4) && protocol != IPPROTO_TCP)
    req.servs.push(GaiServ{SOCK_DGRAM, IPPROTO_UDP, uint16_t(port)});
  if (!strncmp(z, "/tcp", 4) && protocol != IPPROTO_UDP)
    req.servs.push(GaiServ{SOCK_STREAM, IPPROTO_TCP, uint16_t(port)});
}

int musl_services_file(GaiRequest& req, const char* name, int protocol) {
  int fd = open("/etc/services", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? EAI_SERVICE : EAI_SYSTEM;
  char buf[1024], line[128];
  size_t have = 0, used = 0, len = 0;
  bool eof = false;
  while (req.servs.count < 2) {
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
    musl_services_line(req, line, name, protocol);
  }
  close(fd);
  return req.servs.count ? 0 : EAI_SERVICE;
}

}  // namespace

// __lookup_serv.
int musl_services(GaiRequest& req, const char* name, int socktype, int protocol, int flags) {
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
      // musl keeps both in unsigned chars (struct service): 443 comes back 187.
      if (name) return EAI_SERVICE;
      req.servs.push(GaiServ{socktype & 0xff, protocol & 0xff, 0});
      return 0;
  }
  unsigned long port = 0;
  char* z = const_cast<char*>("");
  if (name) {
    if (!*name) return EAI_SERVICE;
    port = strtoul(name, &z, 10);
  }
  if (*z) return flags & AI_NUMERICSERV ? EAI_NONAME : musl_services_file(req, name, protocol);
  if (port > 65535) return EAI_SERVICE;
  if (protocol != IPPROTO_UDP) req.servs.push(GaiServ{SOCK_STREAM, IPPROTO_TCP, uint16_t(port)});
  if (protocol != IPPROTO_TCP) req.servs.push(GaiServ{SOCK_DGRAM, IPPROTO_UDP, uint16_t(port)});
  return 0;
}

}  // namespace rk8s
