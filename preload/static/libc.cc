// SPDX-License-Identifier: Apache-2.0
// A static program has no RTLD_NEXT: musl's own entry points are linked
// into our archive under these names, renamed in a copy of the machine's
// libc.a objects (mk/musl.mk).
#include "../libc.h"

#define MUSL(f) __rk8s_musl_##f
#define DECLARE(f) extern "C" decltype(::f) MUSL(f);
DECLARE(getaddrinfo)
DECLARE(freeaddrinfo)
DECLARE(gethostbyname)
DECLARE(gethostbyname2)
DECLARE(gethostbyname_r)
DECLARE(gethostbyname2_r)

namespace rk8s {

const LibcResolver& libc_resolver() {
  static const LibcResolver musl = {
      .getaddrinfo = MUSL(getaddrinfo),
      .freeaddrinfo = MUSL(freeaddrinfo),
      .gethostbyname = MUSL(gethostbyname),
      .gethostbyname2 = MUSL(gethostbyname2),
      .gethostbyname_r = MUSL(gethostbyname_r),
      .gethostbyname2_r = MUSL(gethostbyname2_r),
  };
  return musl;
}

}  // namespace rk8s
