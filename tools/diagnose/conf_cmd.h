// SPDX-License-Identifier: Apache-2.0
// resolv-k8s conf [--musl] [FILE]: resolv.conf as the library reads it.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int conf_command(const Args& args);

}  // namespace rk8s::tools
