// SPDX-License-Identifier: Apache-2.0
// res_search and res_nsearch, glibc's only: musl's res_search never walks
// the search list.
#pragma once

#include "resolve/dns_step.h"

namespace rk8s {

// One res_nsearch(statp, name, klass, type, answer, anslen) call, for a
// `statp` that holds what `conf` holds (the caller checks), with the
// h_errno it sets; and how its DNS step runs: the transport, and the debug
// log's record (null: none).
struct SearchRequest {
  const Config& conf;
  const char* name;
  int klass;
  int type;
  uint8_t* answer;
  int anslen;
  int* herr;
  ExchangeFn exchange;
  ResolveTrace* trace;
};

// res_nsearch as glibc 2.36 answers it (__res_context_search): the reply's
// length, or -1 with *herr set; or kLetLibcAnswer: libc must answer.
int resolve_search(const SearchRequest& req);

}  // namespace rk8s
