// SPDX-License-Identifier: Apache-2.0
// Least privilege for the serving process: once its sockets are bound it
// needs no capability (CAP_NET_BIND_SERVICE only binds port 53, and
// CAP_NET_ADMIN stays with the supervisor), so it drops them all, from the
// bounding set too, and can gain none again (no_new_privs).
#pragma once

#include <string>

namespace rk8s::server {

// "" when done, else why not.
std::string drop_capabilities();

}  // namespace rk8s::server
