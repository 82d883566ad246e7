// SPDX-License-Identifier: Apache-2.0
// Addresses as the config file and the command line write them: listen
// endpoints and upstream servers.
#pragma once

#include <string>
#include <string_view>

#include "server/config/config.h"

namespace rk8s::server {

// "ADDR:PORT" or "[V6ADDR]:PORT".
bool parse_endpoint(const std::string& text, Endpoint& out);
// An IPv4 or IPv6 address alone, as inet_pton reads it.
bool parse_ip(std::string_view text, IpAddr& out);
// "10.96.0.11" (port `port`, 53 by default), "10.96.0.12:5353",
// "fd00::11", "[fd00::11]:53". Port 0 is refused.
bool parse_upstream(std::string_view text, Upstream& out, uint16_t port = 53);
// The upstream at `ip` and `port`, its text always with the port:
// "10.96.0.11:53", "[fd00::11]:53".
Upstream upstream_at(const IpAddr& ip, uint16_t port);

}  // namespace rk8s::server
