// SPDX-License-Identifier: Apache-2.0
// Hosts that need no lookup: address literals and node NULL, as glibc
// 2.36's text_to_binary_address and musl 1.2.3's __lookup_ipliteral and
// __lookup_name read them.
#include "results/numeric.h"

#include <string.h>

#include "util/text.h"

namespace rk8s {

int glibc_numeric(const GaiRequest& req, const char* name, IpAddr& a, bool& found) {
  found = false;
  a = IpAddr{};
  Str text = str(name);
  if (parse_inet_aton(text, a.addr)) {
    a.family = AF_INET;
    if (req.family == AF_INET6) {
      if (!(req.flags & AI_V4MAPPED)) return EAI_ADDRFAMILY;
      a = v4_mapped(a);
    }
    found = true;
    return 0;
  }
  size_t percent = find(text, '%');
  if (percent < 64 && parse_inet_pton(AF_INET6, take(text, percent), a.addr)) {
    a.family = AF_INET6;
    if (req.family == AF_INET) {
      if (!is_v4_mapped(a)) return EAI_ADDRFAMILY;
      // glibc moves the IPv4 bytes to the front and reads the scope of what
      // the array then holds.
      memcpy(a.addr, a.addr + 12, 4);
      a.family = AF_INET;
    }
    if (percent < text.size && !glibc_scope_id(a.addr, drop(text, percent + 1), a.scope_id))
      return EAI_NONAME;
    if (a.family == AF_INET) memset(a.addr + 4, 0, 12);
    found = true;
    return 0;
  }
  return req.flags & AI_NUMERICHOST ? EAI_NONAME : 0;
}

int musl_numeric(const char* name, int family, uint32_t release, IpAddr& a) {
  Literal l = parse_ip_literal(Dialect::musl, str(name), a);
  if (l == Literal::none) return 0;
  if ((family == AF_INET && a.family == AF_INET6) || (family == AF_INET6 && a.family == AF_INET))
    return release >= rk8s::release(1, 2, 4) ? EAI_NODATA : EAI_NONAME;  // 85050ac5
  return l == Literal::ok ? 1 : EAI_NONAME;
}

size_t wildcard_addrs(const GaiRequest& req, int family, IpAddr (&out)[2]) {
  bool passive = req.flags & AI_PASSIVE;
  IpAddr v4, v6;
  v4.family = AF_INET;
  v6.family = AF_INET6;
  if (!passive) {
    v4.addr[0] = 127, v4.addr[3] = 1;
    v6.addr[15] = 1;
  }
  size_t n = 0;
  bool glibc = req.dialect == Dialect::glibc;
  if (glibc && family != AF_INET) out[n++] = v6;
  if (family != AF_INET6) out[n++] = v4;
  if (!glibc && family != AF_INET) out[n++] = v6;
  return n;
}

}  // namespace rk8s
