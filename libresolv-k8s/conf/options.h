// SPDX-License-Identifier: Apache-2.0
// The words of `options` lines (and of RES_OPTIONS), in both dialects.
#pragma once

#include "conf/resolv_conf.h"

namespace rk8s::conf {

void glibc_options(Str text, Config& c);
void musl_options(Str line, Config& c);

}  // namespace rk8s::conf
