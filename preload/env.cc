// SPDX-License-Identifier: Apache-2.0
// The environment switches of libc.h, shared by the preload and static builds.
#include <string.h>

#include "libc.h"
#include "util/env.h"

namespace rk8s {
namespace {

// -1 until read; the environment does not change under a running lookup.
int flag(int& cached, const char* name, const char* on) {
  int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (v < 0) {
    const char* e = secure_env(name);
    v = e && strcmp(e, on) == 0;
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
  }
  return v;
}

int off_flag = -1;
int debug_flag = -1;

}  // namespace

#ifdef __GLIBC__
bool stepped_aside() { return !gnu_get_libc_version || flag(off_flag, "RESOLV_K8S", "off"); }
#else
bool stepped_aside() { return flag(off_flag, "RESOLV_K8S", "off"); }
#endif
bool debug_on() { return flag(debug_flag, "RESOLV_K8S_DEBUG", "1"); }

}  // namespace rk8s
