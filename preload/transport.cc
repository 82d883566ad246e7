// SPDX-License-Identifier: Apache-2.0
// start_transport of libc.h, shared by the preload and static builds.
#include <ares.h>
#include <pthread.h>

#include "libc.h"

// mimalloc.h wants libstdc++ headers in C++; these three are all we use.
extern "C" void* mi_malloc(size_t size);
extern "C" void* mi_realloc(void* p, size_t size);
extern "C" void mi_free(void* p);

namespace rk8s {
namespace {

pthread_once_t ares_once = PTHREAD_ONCE_INIT;

// Our c-ares copy allocates from our mimalloc copy: the application's
// allocator never sees the resolver's internals.
void init_ares() { ares_library_init_mem(ARES_LIB_INIT_ALL, mi_malloc, mi_free, mi_realloc); }

}  // namespace

void start_transport() { pthread_once(&ares_once, init_ares); }

}  // namespace rk8s
