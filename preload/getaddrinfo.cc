// getaddrinfo and freeaddrinfo, in front of libc's.
#include <ares.h>
#include <pthread.h>

#include "addrinfo.h"
#include "files.h"
#include "libc.h"
#include "trace.h"

#ifndef __THROW
#define __THROW
#endif

#define EXPORT extern "C" __attribute__((visibility("default")))

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
}  // namespace rk8s

EXPORT int getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                       struct addrinfo** res) __THROW {
  using namespace rk8s;
  if (switched_off()) return libc_resolver().getaddrinfo(node, service, hints, res);
  pthread_once(&ares_once, init_ares);
  int rc;
  if (debug_on()) {
    ResolveTrace trace;
    rc = resolve_addrinfo(node, service, hints, res, traced_exchange, &trace);
    trace_outcome(node, rc, trace);
  } else {
    rc = resolve_addrinfo(node, service, hints, res, exchange, nullptr);
  }
  if (rc != kLetLibcAnswer) return rc;
  count_libc_call();
  return libc_resolver().getaddrinfo(node, service, hints, res);
}

// Our lists are laid out as the libc lays out its own, so one free serves
// both, whoever made the list.
EXPORT void freeaddrinfo(struct addrinfo* ai) __THROW { rk8s::gai_free(rk8s::kLibc, ai); }
