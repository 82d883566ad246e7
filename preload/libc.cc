// SPDX-License-Identifier: Apache-2.0
#include "libc.h"

#include <dlfcn.h>
#include <pthread.h>

namespace rk8s {
namespace {

LibcResolver next;
pthread_once_t next_once = PTHREAD_ONCE_INIT;

template <class F>
void find(F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

void find_next() {
  find(next.getaddrinfo, "getaddrinfo");
  find(next.freeaddrinfo, "freeaddrinfo");
  find(next.gethostbyname, "gethostbyname");
  find(next.gethostbyname2, "gethostbyname2");
  find(next.gethostbyname_r, "gethostbyname_r");
  find(next.gethostbyname2_r, "gethostbyname2_r");
#ifdef __GLIBC__
  find(next.res_search, "res_search");
  find(next.res_nsearch, "res_nsearch");
#endif
}

}  // namespace

const LibcResolver& libc_resolver() {
  pthread_once(&next_once, find_next);
  return next;
}

}  // namespace rk8s
