// SPDX-License-Identifier: Apache-2.0
// The environment, as secure_getenv reads it: the static musl archive may
// be linked into a setuid program, whose environment is its caller's.
#pragma once

namespace rk8s {

// getenv(name), or null in a program the kernel marked secure (AT_SECURE:
// setuid, setgid or given capabilities), the test glibc's secure_getenv
// and musl's libc.secure make.
const char* secure_env(const char* name);

}  // namespace rk8s
