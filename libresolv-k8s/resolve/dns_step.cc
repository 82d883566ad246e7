// SPDX-License-Identifier: Apache-2.0
// The DNS step of every entry point: the search plan, then one counted walk.
#include "resolve/dns_step.h"

#include <string.h>

#include "files/files.h"
#include "resolve/counters.h"

namespace rk8s {

int dns_plan(const char* node, Config& conf, Plan& plan, ResolveTrace* trace) {
  current_config(conf);
  return dns_plan_for(node, conf, plan, trace);
}

int dns_plan_for(const char* node, const Config& conf, Plan& plan, ResolveTrace* trace) {
  if (!conf.complete) return kLetLibcAnswer;
  if (kLibc == Dialect::glibc && !strchr(node, '.') && resolver_env("HOSTALIASES"))
    return kLetLibcAnswer;
  build_plan(conf, str(node), plan);
  if (trace) trace->plan = plan;
  return plan.kind == Plan::invalid_name ? plan.error : 0;
}

void dns_lookup(const LookupRequest& req, LookupResult& r, ResolveTrace* trace) {
  lookup(req, r);
  count_walk(r);
  if (trace) trace->used_dns = true, trace->result = r;
}

}  // namespace rk8s
