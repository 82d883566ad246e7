#include "server/ip.h"

#include <arpa/inet.h>

namespace rk8s::server {

size_t Ip::size() const { return family == AF_INET ? 4 : 16; }

bool parse_ip(std::string_view text, Ip& out) {
  std::string s(text);
  if (inet_pton(AF_INET, s.c_str(), out.bytes) == 1) {
    out.family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, s.c_str(), out.bytes) == 1) {
    out.family = AF_INET6;
    return true;
  }
  return false;
}

Name reverse_name(const Ip& ip) {
  std::string text;
  if (ip.family == AF_INET) {
    for (int i = 3; i >= 0; --i) text += std::to_string(ip.bytes[i]) + ".";
    text += "in-addr.arpa";
  } else {
    static const char hex[] = "0123456789abcdef";
    for (int i = 15; i >= 0; --i) {
      text += hex[ip.bytes[i] & 15];
      text += '.';
      text += hex[ip.bytes[i] >> 4];
      text += '.';
    }
    text += "ip6.arpa";
  }
  Name name;
  parse_name(text, name);
  return name;
}

std::string dashed_label(const Ip& ip) {
  char buf[INET6_ADDRSTRLEN];
  inet_ntop(ip.family, ip.bytes, buf, sizeof buf);
  std::string label = buf;
  for (char& c : label)
    if (c == '.' || c == ':') c = '-';
  return label;
}

}  // namespace rk8s::server
