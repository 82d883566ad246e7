// IP addresses as Kubernetes objects and reverse zones name them.
#pragma once

#include <string>
#include <string_view>

#include "server/names.h"

namespace rk8s::server {

struct Ip {
  int family = 0;  // AF_INET or AF_INET6
  uint8_t bytes[16] = {};
  size_t size() const;
};

bool parse_ip(std::string_view text, Ip& out);
// 10.0.0.1 -> 1.0.0.10.in-addr.arpa, v6 -> nibbles under ip6.arpa.
Name reverse_name(const Ip& ip);
// The label Kubernetes derives from an address: 10-0-0-1, fd00--1.
std::string dashed_label(const Ip& ip);

}  // namespace rk8s::server
