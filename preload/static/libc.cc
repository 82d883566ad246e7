// A static program has no RTLD_NEXT: musl's own getaddrinfo and
// freeaddrinfo are linked into our archive under these names, renamed in
// copies of the objects of the machine's libc.a (mk/musl.mk).
#include "../libc.h"

extern "C" int __rk8s_musl_getaddrinfo(const char*, const char*, const struct addrinfo*,
                                       struct addrinfo**);
extern "C" void __rk8s_musl_freeaddrinfo(struct addrinfo*);

namespace rk8s {

const LibcResolver& libc_resolver() {
  static const LibcResolver musl = {__rk8s_musl_getaddrinfo, __rk8s_musl_freeaddrinfo};
  return musl;
}

}  // namespace rk8s
