// SPDX-License-Identifier: Apache-2.0
// resolv-k8s plan [--musl] [--conf FILE] [-f FAMILY] NAME: the names the
// classic walk asks for, and the one autopath query standing for them.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int plan_command(const Args& args);

}  // namespace rk8s::tools
