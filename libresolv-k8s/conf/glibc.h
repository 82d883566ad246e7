// SPDX-License-Identifier: Apache-2.0
// resolv.conf as glibc 2.36 reads it, with LOCALDOMAIN, RES_OPTIONS and the
// host name's domain.
#pragma once

#include "conf/resolv_conf.h"

namespace rk8s::conf {

void parse_glibc(Str text, const ConfEnv& env, Config& c);

}  // namespace rk8s::conf
