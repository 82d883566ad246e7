// SPDX-License-Identifier: Apache-2.0
// The first call's set-up, start_library.cc.
#pragma once

namespace rk8s {

// Once, before the first lookup: c-ares on our own allocator, and the
// release of the running libc told to the core.
void start_library();

}  // namespace rk8s
