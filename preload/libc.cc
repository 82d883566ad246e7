#include "libc.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

namespace rk8s {
namespace {

LibcResolver next;
pthread_once_t next_once = PTHREAD_ONCE_INIT;

void find_next() {
  next.getaddrinfo = reinterpret_cast<decltype(next.getaddrinfo)>(dlsym(RTLD_NEXT, "getaddrinfo"));
  next.freeaddrinfo =
      reinterpret_cast<decltype(next.freeaddrinfo)>(dlsym(RTLD_NEXT, "freeaddrinfo"));
}

// -1 until read; the environment does not change under a running lookup.
int flag(int& cached, const char* name, const char* on) {
  int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (v < 0) {
    const char* e = getenv(name);
    v = e && strcmp(e, on) == 0;
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
  }
  return v;
}

int off_flag = -1;
int debug_flag = -1;

}  // namespace

const LibcResolver& libc_resolver() {
  pthread_once(&next_once, find_next);
  return next;
}

bool switched_off() { return flag(off_flag, "RESOLV_K8S", "off"); }
bool debug_on() { return flag(debug_flag, "RESOLV_K8S_DEBUG", "1"); }

}  // namespace rk8s
