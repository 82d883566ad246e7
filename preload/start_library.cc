// SPDX-License-Identifier: Apache-2.0
// start_library of start_library.h, shared by the preload and static builds.
#include <ares.h>

#include "libc.h"
#include "start_library.h"
#include "util/base.h"
#include "util/release.h"

// mimalloc.h wants libstdc++ headers in C++; these three are all we use.
extern "C" void* mi_malloc(size_t size);
extern "C" void* mi_realloc(void* p, size_t size);
extern "C" void mi_free(void* p);

namespace rk8s {
namespace {

Once start_once;

// Our c-ares copy allocates from our mimalloc copy: the application's
// allocator never sees the resolver's internals.
void start() {
  ares_library_init_mem(ARES_LIB_INIT_ALL, mi_malloc, mi_free, mi_realloc);
  set_libc_release(detect_libc_release());
}

}  // namespace

void start_library() { start_once.run(start); }

}  // namespace rk8s
