// SPDX-License-Identifier: Apache-2.0
// getaddrinfo and freeaddrinfo, in front of libc's.
#include "files/files.h"
#include "libc.h"
#include "res_state.h"
#include "resolve/addrinfo.h"
#include "resolve/dns_step.h"
#include "results/list.h"
#include "start_library.h"
#include "stats.h"
#include "switches.h"

EXPORT int getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                       struct addrinfo** res) __THROW {
  using namespace rk8s;
  if (stepped_aside()) return libc_resolver().getaddrinfo(node, service, hints, res);
  start_library();
  return timed([&] {
    int rc = kLetLibcAnswer;
    if (!node || !application_set_res())
      rc = maybe_traced(debug_on(), node, [&](ExchangeFn ex, ResolveTrace* trace) {
        return resolve_addrinfo(node, service, hints, res, ex, trace);
      });
    if (rc != kLetLibcAnswer) return rc;
    count_libc_call();
    return libc_resolver().getaddrinfo(node, service, hints, res);
  });
}

// Our lists are laid out as the libc lays out its own, so one free serves
// both, whoever made the list.
EXPORT void freeaddrinfo(struct addrinfo* ai) __THROW {
  using namespace rk8s;
  if (stepped_aside()) return libc_resolver().freeaddrinfo(ai);
  gai_free(kLibc, ai);
}
