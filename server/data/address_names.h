// SPDX-License-Identifier: Apache-2.0
// The names an IP address has: in a reverse zone, and in the labels
// Kubernetes derives from it.
#pragma once

#include <string>

#include "server/util/names.h"
#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

// 10.0.0.1 -> 1.0.0.10.in-addr.arpa, v6 -> nibbles under ip6.arpa.
Name reverse_name(const IpAddr& ip);
// 10-0-0-1, fd00--1.
std::string dashed_label(const IpAddr& ip);

}  // namespace rk8s::server
