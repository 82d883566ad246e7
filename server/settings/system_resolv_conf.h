// SPDX-License-Identifier: Apache-2.0
// The node's resolv.conf, read at load time as glibc reads the file: the
// nameservers of `type: SystemResolvConf`, in its order, and the search
// domains of the marker path.
#pragma once

#include <string>
#include <vector>

#include "libresolv-k8s/dns/wire.h"
#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

// A file without nameserver lines gives 127.0.0.1, as in glibc. Throws
// std::runtime_error "path: reason" when the file cannot be read, where
// glibc would quietly use 127.0.0.1 too: for a cache on the node that is
// likely itself.
std::vector<IpAddr> system_resolv_conf_nameservers(const std::string& path);

// The search domains of resolv.conf as glibc reads them (the last search or
// domain line); none when the file does not exist. Throws
// std::runtime_error "path: reason" when it cannot be read.
std::vector<dns::Name> system_resolv_conf_search(const std::string& path);

}  // namespace rk8s::server
