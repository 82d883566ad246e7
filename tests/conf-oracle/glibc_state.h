// SPDX-License-Identifier: Apache-2.0
/* What glibc made of resolv.conf and the environment in a resolver state,
 * printed in the form conf_text prints our Config (shared by glibc_res and
 * the differential fuzz target fuzz/diff/conf_glibc_diff.cc). */
#pragma once

#include <resolv.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `st` after res_init or res_ninit. 0, or -1 when glibc has no resolver
 * context for it. */
int print_glibc_state(FILE *out, struct __res_state *st);

#ifdef __cplusplus
}
#endif
