// SPDX-License-Identifier: Apache-2.0
// resolv.conf as musl 1.2.3 reads it.
#pragma once

#include "conf/resolv_conf.h"

namespace rk8s::conf {

void parse_musl(Str text, Config& c);

}  // namespace rk8s::conf
