// SPDX-License-Identifier: Apache-2.0
#include "util/secure_env.h"

#include <stdlib.h>
#include <sys/auxv.h>

namespace rk8s {

const char* secure_env(const char* name) { return getauxval(AT_SECURE) ? nullptr : getenv(name); }

}  // namespace rk8s
