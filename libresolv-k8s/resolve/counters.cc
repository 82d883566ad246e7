// The process's counters (resolve.h), updated by every thread.
#include "resolve/resolve.h"

namespace rk8s {
namespace {

Counters totals;

void add(uint64_t& c, uint64_t n) { __atomic_fetch_add(&c, n, __ATOMIC_RELAXED); }

}  // namespace

Counters counters() {
  auto get = [](const uint64_t& c) { return __atomic_load_n(&c, __ATOMIC_RELAXED); };
  return Counters{get(totals.lookups), get(totals.dns_lookups), get(totals.queries),
                  get(totals.classic_queries), get(totals.autopath), get(totals.fallbacks),
                  get(totals.libc)};
}

void count_lookup() { add(totals.lookups, 1); }
void count_libc_call() { add(totals.libc, 1); }

void count_walk(const LookupResult& r) {
  add(totals.dns_lookups, 1);
  add(totals.queries, r.queries);
  add(totals.classic_queries, r.classic_queries);
  if (r.autopath_answered) add(totals.autopath, 1);
  if (r.fell_back) add(totals.fallbacks, 1);
}

}  // namespace rk8s
