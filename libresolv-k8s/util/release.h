// SPDX-License-Identifier: Apache-2.0
// The release of the libc this process runs with (base.h's release()),
// told once by the entry points before the first lookup: the rules that
// changed between releases follow it. Until then, the reference release.
#pragma once

#include "util/base.h"

namespace rk8s {

uint32_t libc_release();
void set_libc_release(uint32_t release);

}  // namespace rk8s
