// SPDX-License-Identifier: Apache-2.0
// The application's resolver state, res_state.cc: whether glibc's own
// lookups would follow a configuration other than resolv.conf's.
#pragma once

#include <resolv.h>

#include "conf/resolv_conf.h"

namespace rk8s {

#ifdef __GLIBC__
// `s` is what res_init makes of `conf`, unchanged by the application
// (nameservers, search list, options, ndots, timeout, attempts).
bool state_is(const struct __res_state& s, const Config& conf);
#endif

// getaddrinfo and the gethostbyname family: first _res brought up to date as
// glibc's own lookup would (filled on first use, reloaded when resolv.conf
// changed), then true when it is not what res_init makes of
// resolv.conf (state_is): the application changed it, so that
// glibc, which follows _res, must answer. Always false under musl, whose
// lookups read resolv.conf alone.
bool application_set_res();

}  // namespace rk8s
