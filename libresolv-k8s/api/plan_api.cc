// SPDX-License-Identifier: Apache-2.0
// The public C API over Plan: the candidates of the classic walk and the
// autopath query standing for them, whole (rk8s_plan) or piece by piece.
#include <sys/socket.h>

#include "api/api.h"
#include "plan/plan.h"

using namespace rk8s;

static_assert(RK8S_AUTOPATH_Q == autopath::kFlagQ && RK8S_AUTOPATH_PAIRED == autopath::kFlagPaired &&
              RK8S_AUTOPATH_STOP_ON_EXISTS == autopath::kFlagStopOnExists &&
              RK8S_AUTOPATH_BOTH == autopath::kFlagBoth);

// False when the conf went beyond our limits: libc then answers, unplanned.
static bool plan_for(const rk8s_conf* c, const char* name, Plan& out) {
  if (!c->complete) return false;
  build_plan(*c, str(name), out);
  return true;
}

// The suffixes of the autopath query, when autopath is on and there is one.
static bool put_suffixes(const rk8s_conf* c, const Plan& plan, TextOut& t) {
  dns::Name qname;
  autopath::QueryOption opt;
  if (!c->opt.autopath || !autopath_query(*c, plan, 0, qname, opt)) return false;
  for (size_t i = 0; i < opt.count; i++) {
    if (i) t.put(" ");
    t.put_name(opt.suffix[i]);
  }
  return true;
}

RK8S_API size_t rk8s_plan(const rk8s_conf* c, const char* name, char* out, size_t cap) {
  TextOut t{out, cap};
  Plan plan;
  if (!plan_for(c, name, plan)) {
    t.put("libc: resolv.conf beyond our limits\n");
    return t.finish();
  }
  if (plan.kind == Plan::invalid_name) {
    t.put("invalid: EAI_NONAME\n");
    return t.finish();
  }
  dns::Name n;
  for (size_t i = 0; candidate_name(*c, plan, i, n); i++) {
    t.put_name(n);
    t.put("\n");
  }
  t.put("autopath: ");
  if (!c->opt.autopath) t.put("off");
  else if (!put_suffixes(c, plan, t)) t.put("none");
  t.put("\n");
  return t.finish();
}

RK8S_API int rk8s_plan_error(const rk8s_conf* c, const char* name) {
  Plan plan;
  return plan_for(c, name, plan) ? plan.error : 0;
}

RK8S_API size_t rk8s_plan_candidate_count(const rk8s_conf* c, const char* name) {
  Plan plan;
  return plan_for(c, name, plan) ? plan.suffix.count : 0;
}

RK8S_API size_t rk8s_plan_candidate(const rk8s_conf* c, const char* name, size_t i, char* out, size_t cap) {
  TextOut t{out, cap};
  Plan plan;
  dns::Name n;
  if (plan_for(c, name, plan) && candidate_name(*c, plan, i, n)) t.put_name(n);
  return t.finish();
}

RK8S_API size_t rk8s_autopath_suffixes(const rk8s_conf* c, const char* name, char* out, size_t cap) {
  TextOut t{out, cap};
  Plan plan;
  if (plan_for(c, name, plan)) put_suffixes(c, plan, t);
  return t.finish();
}

// As lookups send them: A and AAAA go together for AF_UNSPEC, except
// where glibc's no-aaaa asks for A alone.
RK8S_API unsigned rk8s_autopath_flags(const rk8s_conf* c, int family) {
  bool paired = family == AF_UNSPEC && !(c->dialect == Dialect::glibc && c->opt.no_aaaa);
  return autopath_flags(c->dialect, paired ? 2 : 1);
}
