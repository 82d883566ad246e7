// SPDX-License-Identifier: Apache-2.0
#include "server/data/address_names.h"

#include "server/util/dns_text.h"

namespace rk8s::server {

Name reverse_name(const IpAddr& ip) {
  std::string text;
  if (ip.family == AF_INET) {
    for (int i = 3; i >= 0; --i) text += std::to_string(ip.addr[i]) + ".";
    text += "in-addr.arpa";
  } else {
    static const char hex[] = "0123456789abcdef";
    for (int i = 15; i >= 0; --i) {
      text += hex[ip.addr[i] & 15];
      text += '.';
      text += hex[ip.addr[i] >> 4];
      text += '.';
    }
    text += "ip6.arpa";
  }
  Name name;
  parse_name(text, name);
  return name;
}

std::string dashed_label(const IpAddr& ip) {
  char buf[INET6_ADDRSTRLEN];
  ip_to_text(ip, buf, sizeof buf);
  std::string label = buf;
  for (char& c : label)
    if (c == '.' || c == ':') c = '-';
  return label;
}

}  // namespace rk8s::server
