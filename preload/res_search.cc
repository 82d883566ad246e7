// SPDX-License-Identifier: Apache-2.0
// res_search and res_nsearch in front of glibc's (glibc only: musl's
// res_search is res_query and never walks the list). Programs built before
// glibc 2.34 call them __res_search and __res_nsearch.
#include <errno.h>

#include "files/files.h"
#include "libc.h"
#include "res_state.h"
#include "resolve/dns_step.h"
#include "resolve/res_search_pipeline.h"
#include "start_library.h"
#include "stats.h"
#include "switches.h"

namespace rk8s {
namespace {

int search(res_state statp, const char* name, int klass, int type, unsigned char* answer,
           int anslen) {
  start_library();
  Config conf;
  current_config(conf);
  int herr = HOST_NOT_FOUND;
  int rc = kLetLibcAnswer;
  if (state_is(*statp, conf))
    rc = maybe_traced(debug_on(), name, [&](ExchangeFn ex, ResolveTrace* trace) {
      return resolve_search({conf, name, klass, type, answer, anslen, &herr, ex, trace});
    });
  if (rc == kLetLibcAnswer) {
    count_libc_call();
    return libc_resolver().res_nsearch(statp, name, klass, type, answer, anslen);
  }
  statp->res_h_errno = herr;  // glibc's RES_SET_H_ERRNO
  h_errno = herr;
  return rc;
}

}  // namespace
}  // namespace rk8s

EXPORT int res_nsearch(res_state statp, const char* name, int klass, int type,
                       unsigned char* answer, int anslen) __THROW {
  using namespace rk8s;
  if (stepped_aside()) return libc_resolver().res_nsearch(statp, name, klass, type, answer, anslen);
  return timed([&] { return search(statp, name, klass, type, answer, anslen); });
}

// Weak: the build loads in a musl program too (and steps aside there), and
// musl names it res_init.
extern "C" __attribute__((weak)) int __res_init(void) __THROW;

// _res, initialised from resolv.conf first as glibc's res_search does.
EXPORT int res_search(const char* name, int klass, int type, unsigned char* answer,
                      int anslen) __THROW {
  using namespace rk8s;
  if (stepped_aside()) return libc_resolver().res_search(name, klass, type, answer, anslen);
  return timed([&] {
    if (!(_res.options & RES_INIT) && res_init() < 0) {
      count_libc_call();
      return libc_resolver().res_search(name, klass, type, answer, anslen);
    }
    return search(&_res, name, klass, type, answer, anslen);
  });
}

EXPORT int __res_nsearch(res_state statp, const char* name, int klass, int type,
                         unsigned char* answer, int anslen) __THROW {
  return res_nsearch(statp, name, klass, type, answer, anslen);
}

EXPORT int __res_search(const char* name, int klass, int type, unsigned char* answer,
                        int anslen) __THROW {
  return res_search(name, klass, type, answer, anslen);
}
