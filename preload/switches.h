// SPDX-License-Identifier: Apache-2.0
// The environment switches, switches.cc.
#pragma once

namespace rk8s {

// A pure pass-through, read before anything else is touched: RESOLV_K8S=off,
// or the glibc build in a process whose libc is not glibc (a musl program
// given it), where the build loads but must not serve.
bool stepped_aside();

// RESOLV_K8S_DEBUG=1: each lookup's plan, queries, replies and outcome on stderr.
bool debug_on();

}  // namespace rk8s
