// SPDX-License-Identifier: Apache-2.0
// resolv-k8s lookup [--conf FILE] [-f FAMILY] NAME...: each name through
// the library as the preload's getaddrinfo resolves it (with FILE as its
// resolv.conf), with the debug trace on stderr, then the process's counters.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int lookup_command(const Args& args);

}  // namespace rk8s::tools
