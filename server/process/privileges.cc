// SPDX-License-Identifier: Apache-2.0
#include "server/process/privileges.h"

#include <cap-ng.h>
#include <sys/prctl.h>

#include <cerrno>
#include <cstring>

namespace rk8s::server {

std::string drop_capabilities() {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("no_new_privs: ") + strerror(errno);
  if (capng_have_capabilities(CAPNG_SELECT_BOTH) == CAPNG_NONE) return "";
  capng_clear(CAPNG_SELECT_ALL);
  // The bounding set needs CAP_SETPCAP to shrink: without it, the rest.
  if (capng_apply(CAPNG_SELECT_ALL) != 0 && capng_apply(CAPNG_SELECT_BOTH) != 0)
    return "cannot drop its capabilities";
  return "";
}

}  // namespace rk8s::server
