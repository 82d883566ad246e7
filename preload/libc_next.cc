// SPDX-License-Identifier: Apache-2.0
#include "libc.h"

#include <dlfcn.h>

#include "next_symbol.h"
#include "util/base.h"

namespace rk8s {
namespace {

LibcResolver next;
Once next_once;

void find_libc() {
  find_next(next.getaddrinfo, "getaddrinfo");
  find_next(next.freeaddrinfo, "freeaddrinfo");
  find_next(next.gethostbyname, "gethostbyname");
  find_next(next.gethostbyname2, "gethostbyname2");
  find_next(next.gethostbyname_r, "gethostbyname_r");
  find_next(next.gethostbyname2_r, "gethostbyname2_r");
#ifdef __GLIBC__
  // Before 2.34 resolv.h's macros turned res_search into libresolv.so.2's
  // __res_search.
  find_next(next.res_search, "res_search", "__res_search");
  find_next(next.res_nsearch, "res_nsearch", "__res_nsearch");
#endif
}

}  // namespace

#ifdef __GLIBC__
// "2.31": glibc names its release.
uint32_t detect_libc_release() {
  const char* v = gnu_get_libc_version ? gnu_get_libc_version() : "";
  uint32_t part[2] = {};
  for (size_t i = 0; i < 2 && *v >= '0' && *v <= '9'; i++, v += *v == '.')
    for (; *v >= '0' && *v <= '9'; v++) part[i] = part[i] * 10 + uint32_t(*v - '0');
  return release(part[0], part[1]);
}
#else
// musl names no release: the functions one added or took away, asked of
// musl's own libc (RTLD_DEFAULT would find the program's or another
// library's too): stat64 and the other LFS64 names went in 1.2.4, statx
// came in 1.2.5, qsort_r in 1.2.3. 1.2.2 and 1.2.3 resolve alike.
uint32_t detect_libc_release() {
  void* libc = dlopen("libc.so", RTLD_LAZY | RTLD_NOLOAD);
  if (!libc) return reference_release(Dialect::musl);
  if (dlsym(libc, "statx")) return release(1, 2, 5);
  if (!dlsym(libc, "stat64")) return release(1, 2, 4);
  return dlsym(libc, "qsort_r") ? release(1, 2, 3) : release(1, 2, 2);
}
#endif

const LibcResolver& libc_resolver() {
  next_once.run(find_libc);
  return next;
}

}  // namespace rk8s
