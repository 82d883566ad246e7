// `type: SystemResolvConf`: the nameservers of resolv.conf, read at load
// time as glibc reads the file, in its order, each on port 53.
#pragma once

#include <string>
#include <vector>

#include "server/config/config.h"

namespace rk8s::server {

// A file without nameserver lines gives 127.0.0.1, as in glibc. Throws
// std::runtime_error "path: reason" when the file cannot be read, where
// glibc would quietly use 127.0.0.1 too: for a cache on the node that is
// likely itself.
std::vector<Upstream> system_resolv_conf_upstreams(const std::string& path);

}  // namespace rk8s::server
