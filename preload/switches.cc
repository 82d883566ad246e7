// SPDX-License-Identifier: Apache-2.0
// The environment switches of switches.h, shared by the preload and static builds.
#include <stdlib.h>
#include <string.h>

#include "libc.h"
#include "switches.h"
#include "util/secure_env.h"

namespace rk8s {
namespace {

// -1 until read; the environment does not change under a running lookup.
int flag(int& cached, const char* (*read)(const char*), const char* name, const char* on) {
  int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (v < 0) {
    const char* e = read(name);
    v = e && strcmp(e, on) == 0;
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
  }
  return v;
}

int off_flag = -1;
int debug_flag = -1;

// getenv as `read` takes it (glibc's returns char*).
const char* plain_env(const char* name) { return getenv(name); }

}  // namespace

// The kill switch is read in a secure (setuid) program too: it can only make
// the library do less, so it reaches every program; the rest are not.
#ifdef __GLIBC__
bool stepped_aside() { return !gnu_get_libc_version || flag(off_flag, plain_env, "RESOLV_K8S", "off"); }
#else
bool stepped_aside() { return flag(off_flag, plain_env, "RESOLV_K8S", "off"); }
#endif
bool debug_on() { return flag(debug_flag, secure_env, "RESOLV_K8S_DEBUG", "1"); }

}  // namespace rk8s
