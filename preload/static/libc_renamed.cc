// SPDX-License-Identifier: Apache-2.0
// A static program has no RTLD_NEXT: musl's own entry points are linked
// into our archive under these names, renamed in a copy of the machine's
// libc.a objects (mk/musl.mk).
#include <resolv.h>
#include <stdio.h>
#include <wchar.h>

#include "../libc.h"
#include "util/base.h"

#define MUSL(f) __rk8s_musl_##f
#define DECLARE(f) extern "C" decltype(::f) MUSL(f);
DECLARE(getaddrinfo)
DECLARE(freeaddrinfo)
DECLARE(gethostbyname)
DECLARE(gethostbyname2)
DECLARE(gethostbyname_r)
DECLARE(gethostbyname2_r)

namespace rk8s {

// A static program has no symbols to ask for: what the linked musl's own
// code does. res_mkquery refuses "a.." from 1.2.4 on (001c1afb); snprintf
// writes the NUL of a %lc from 1.2.5 on (7b6a6516), the format out of the
// compiler's sight, which would fold the call. 1.2.2 and 1.2.3 resolve alike.
uint32_t detect_libc_release() {
  unsigned char query[280];
  if (res_mkquery(0, "a..", 1, 1, nullptr, 0, nullptr, query, sizeof query) != -1) return release(1, 2, 3);
  static const char* volatile lc = "%lc";
  char out[4];
  return snprintf(out, sizeof out, lc, wint_t(0)) == 1 ? release(1, 2, 5) : release(1, 2, 4);
}

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
