// SPDX-License-Identifier: Apache-2.0
#include "server/settings/address.h"

#include "server/util/strings.h"

namespace rk8s::server {

bool parse_address_port(std::string_view text, IpAddr& ip, uint16_t& port) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return false;
  std::string_view host = text.substr(0, colon);
  unsigned long n;
  if (!parse_uint(text.substr(colon + 1), 65535, n)) return false;
  bool v6 = host.size() > 2 && host.front() == '[' && host.back() == ']';
  if (v6) host = host.substr(1, host.size() - 2);
  ip = IpAddr{};
  ip.family = v6 ? AF_INET6 : AF_INET;
  port = uint16_t(n);
  return parse_inet_pton(ip.family, str(host), ip.addr);
}

bool parse_endpoint(const std::string& text, Endpoint& out) {
  IpAddr ip;
  uint16_t port;
  if (!parse_address_port(text, ip, port)) return false;
  out = Endpoint{};
  out.text = text;
  out.len = ip_to_sockaddr(ip, port, &out.addr);
  return true;
}

bool parse_ip(std::string_view text, IpAddr& out) {
  for (int family : {AF_INET, AF_INET6}) {
    out = IpAddr{};
    out.family = uint8_t(family);
    if (parse_inet_pton(family, str(text), out.addr)) return true;
  }
  return false;
}

}  // namespace rk8s::server
