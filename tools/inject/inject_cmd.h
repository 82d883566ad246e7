// SPDX-License-Identifier: Apache-2.0
// resolv-k8s inject [FLAGS] FILE|-: Kubernetes YAML with libresolv-k8s added
// to every pod it describes, as `linkerd inject` does for its proxy. Objects
// it does not change are written byte for byte; nothing is written unless
// every document could be read.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int inject_command(const Args& args);

}  // namespace rk8s::tools
