// SPDX-License-Identifier: Apache-2.0
// The glibc build's own pthread_key_create, pthread_getspecific,
// pthread_setspecific and pthread_atfork (hidden: the core's and mimalloc's
// calls come here). Before 2.34 glibc had them in libpthread.so.0 alone,
// which a program without threads does not load and an image made of ldd's
// list lacks, so the build names libc.so.6 alone. They go on to the ones
// the process has; a process without libpthread has one thread, and keys
// fail (the core and mimalloc then keep their per-thread state in TLS
// alone). Fork handlers go to __register_atfork, libc.so.6's since 2.3.2,
// as libc_nonshared.a's pthread_atfork does (musl lacks it: a musl program
// given this build steps aside and registers none).
#include <errno.h>
#include <pthread.h>

#include "next_symbol.h"
#include "util/base.h"

extern "C" void* __dso_handle;

namespace rk8s {
namespace {

struct Threads {
  int (*key_create)(pthread_key_t*, void (*)(void*));
  void* (*getspecific)(pthread_key_t);
  int (*setspecific)(pthread_key_t, const void*);
  int (*register_atfork)(void (*)(), void (*)(), void (*)(), void*);
};
Threads real;
Once found;

void find_threads() {
  find_next(real.key_create, "pthread_key_create");
  find_next(real.getspecific, "pthread_getspecific");
  find_next(real.setspecific, "pthread_setspecific");
  find_next(real.register_atfork, "__register_atfork");
}

const Threads& threads() {
  found.run(find_threads);
  return real;
}

}  // namespace
}  // namespace rk8s

using rk8s::threads;

int pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) __THROW {
  const auto& t = threads();
  return t.key_create ? t.key_create(key, destructor) : EAGAIN;
}

void* pthread_getspecific(pthread_key_t key) __THROW {
  const auto& t = threads();
  return t.getspecific ? t.getspecific(key) : nullptr;
}

int pthread_setspecific(pthread_key_t key, const void* value) __THROW {
  const auto& t = threads();
  return t.setspecific ? t.setspecific(key, value) : EINVAL;
}

int pthread_atfork(void (*prepare)(), void (*parent)(), void (*child)()) __THROW {
  const auto& t = threads();
  return t.register_atfork ? t.register_atfork(prepare, parent, child, __dso_handle) : 0;
}
