#include "libc.h"

#include <dlfcn.h>
#include <pthread.h>

namespace rk8s {
namespace {

LibcResolver next;
pthread_once_t next_once = PTHREAD_ONCE_INIT;

void find_next() {
  next.getaddrinfo = reinterpret_cast<decltype(next.getaddrinfo)>(dlsym(RTLD_NEXT, "getaddrinfo"));
  next.freeaddrinfo =
      reinterpret_cast<decltype(next.freeaddrinfo)>(dlsym(RTLD_NEXT, "freeaddrinfo"));
}

}  // namespace

const LibcResolver& libc_resolver() {
  pthread_once(&next_once, find_next);
  return next;
}

}  // namespace rk8s
