// SPDX-License-Identifier: Apache-2.0
#include "util/release.h"

namespace rk8s {

static uint32_t told;  // 0: not yet

uint32_t libc_release() {
  uint32_t r = __atomic_load_n(&told, __ATOMIC_RELAXED);
  return r ? r : reference_release(kLibc);
}

void set_libc_release(uint32_t release) { __atomic_store_n(&told, release, __ATOMIC_RELAXED); }

}  // namespace rk8s
