// SPDX-License-Identifier: Apache-2.0
// Addresses as the config file and the command line write them: listen
// endpoints, and the address and port an upstream's is made of
// (forward/forward_settings.h).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <string_view>

#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

// An address to listen on: 127.0.0.1:53, [::1]:53.
struct Endpoint {
  sockaddr_storage addr = {};
  socklen_t len = 0;
  std::string text;  // as given
  // Bound before the address is the node's (IP_FREEBIND): with nodeSetup,
  // which puts it on its interface once the server listens.
  bool before_address = false;
};

// "ADDR:PORT" or "[V6ADDR]:PORT".
bool parse_endpoint(const std::string& text, Endpoint& out);
// The same, as an address and a port.
bool parse_address_port(std::string_view text, IpAddr& ip, uint16_t& port);
// An IPv4 or IPv6 address alone, as inet_pton reads it.
bool parse_ip(std::string_view text, IpAddr& out);

}  // namespace rk8s::server
