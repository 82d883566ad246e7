// SPDX-License-Identifier: Apache-2.0
// Our Config printed in the form glibc_state prints glibc's resolver state
// (shared by conf_print and the differential fuzz targets in fuzz/diff/).
// Freestanding: it is also built against musl.
#pragma once

#include <stdio.h>

#include "conf/resolv_conf.h"

void print_conf(FILE* out, const rk8s::Config& c);
