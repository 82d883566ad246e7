#include "resolve/resolve.h"

#include <stdlib.h>
#include <sys/socket.h>

#include "results/addrinfo.h"
#include "files/files.h"
#include "files/hosts.h"

namespace rk8s {
namespace {

Counters totals;

void add(uint64_t& c, uint64_t n) { __atomic_fetch_add(&c, n, __ATOMIC_RELAXED); }

struct Found {
  GaiAddr addrs[kMaxGaiAddrs];
  size_t count = 0;
  char canon[kHostsNameBytes] = {};
  bool complete = true;

  void take(const HostsResult& r) {
    for (const HostsAddr& a : r.addrs) push(a.family, a.addr, a.scope_id);
  }
  void take(const LookupResult& r) {
    for (const Address& a : r.addrs) push(a.family, a.addr, 0);
  }
  void push(uint8_t family, const uint8_t* addr, uint32_t scope_id) {
    if (count == kMaxGaiAddrs) {
      complete = false;
      return;
    }
    GaiAddr& g = addrs[count++];
    g.family = family;
    memcpy(g.addr, addr, sizeof g.addr);
    g.scope_id = scope_id;
  }
};

// /etc/hosts for the families the plan wants, in glibc's order of asking.
// Returns 0, an EAI_* code (musl: the name is only of the other family) or
// kLetLibcAnswer.
int from_hosts(const GaiPlan& gp, Found& found) {
  HostsText hosts;
  if (!hosts.ok()) return 0;
  HostsQuery q;
  q.dialect = kLibc;
  q.multi = kLibc == Dialect::glibc && hosts_multi();
  bool two_steps = kLibc == Dialect::glibc && gp.family == AF_INET6 && gp.want_a;
  q.family = two_steps                      ? AF_INET6
             : gp.want_a && gp.want_aaaa    ? AF_UNSPEC
             : gp.want_a                    ? AF_INET
                                            : AF_INET6;
  HostsResult first, second;  // both outlive `canon`
  hosts_lookup(q, hosts.text(), str(gp.node), first);
  int rc = !first.complete ? kLetLibcAnswer : first.error;
  if (rc == 0) {
    found.take(first);
    const char* canon = first.canon();
    if (two_steps && (!gp.a_only_without_aaaa || found.count == 0)) {
      q.family = AF_INET;
      hosts_lookup(q, hosts.text(), str(gp.node), second);
      if (!second.complete) rc = kLetLibcAnswer;
      found.take(second);
      if (!first.found()) canon = second.canon();
    }
    size_t n = strnlen(canon, sizeof found.canon - 1);
    memcpy(found.canon, canon, n);
    found.canon[n] = 0;
  }
  return found.complete ? rc : kLetLibcAnswer;
}

// glibc's verdict when no walk found anything (gaih_inet's no_data and
// no_inet6_data), or musl's.
int error_of(Status a, Status b) {
  if (a == Status::pass_through || b == Status::pass_through) return kLetLibcAnswer;
  if (a == Status::system || b == Status::system) return EAI_SYSTEM;
  if (kLibc == Dialect::musl) return a == Status::try_again ? EAI_AGAIN : EAI_NONAME;
  if (a == Status::try_again && b == Status::try_again) return EAI_AGAIN;
  bool a_nodata = a == Status::try_again || a == Status::no_data;
  bool b_nodata = b == Status::try_again || b == Status::no_data;
  return a_nodata && b_nodata ? EAI_NODATA : EAI_NONAME;
}

void count_walk(const LookupResult& r) {
  add(totals.dns_lookups, 1);
  add(totals.queries, r.queries);
  add(totals.classic_queries, r.classic_queries);
  if (r.autopath_answered) add(totals.autopath, 1);
  if (r.fell_back) add(totals.fallbacks, 1);
}

// One walk; its addresses join `found`.
Status walk(const Config& conf, const Plan& plan, const uint16_t* qtypes, size_t nq,
            ExchangeFn exchange, Found& found, ResolveTrace* trace) {
  LookupResult r;
  dns_lookup(conf, plan, qtypes, nq, exchange, r, trace);
  if (r.status != Status::found) return r.status;
  if (found.count == 0) dns::name_to_text(r.canon, found.canon, sizeof found.canon);
  found.take(r);
  return found.complete ? Status::found : Status::pass_through;
}

// DNS for the families the plan wants: glibc asks A and AAAA together for
// AF_UNSPEC, and AAAA then A for AF_INET6 with AI_V4MAPPED; musl asks both
// types of every candidate.
int from_dns(const GaiPlan& gp, ExchangeFn exchange, Found& found, ResolveTrace* trace) {
  Config conf;
  Plan plan;
  if (int rc = dns_plan(gp.node, conf, plan, trace)) return rc;

  static const uint16_t kA[] = {dns::kTypeA}, kAAAA[] = {dns::kTypeAAAA};
  static const uint16_t kBoth[] = {dns::kTypeA, dns::kTypeAAAA};
  Status first, second;
  if (kLibc == Dialect::musl || gp.family != AF_INET6 || !gp.want_a) {
    bool both = gp.want_a && gp.want_aaaa && !(kLibc == Dialect::glibc && conf.opt.no_aaaa);
    const uint16_t* qtypes = both ? kBoth : gp.want_a ? kA : kAAAA;
    first = second = walk(conf, plan, qtypes, both ? 2 : 1, exchange, found, trace);
  } else {
    first = walk(conf, plan, kAAAA, 1, exchange, found, trace);
    second = first;
    if (!gp.a_only_without_aaaa || found.count == 0) {
      second = walk(conf, plan, kA, 1, exchange, found, trace);
      if (first == Status::found || second == Status::found) first = second = Status::found;
    }
  }
  if (first == Status::found) return 0;
  return error_of(first, second);
}

}  // namespace

int dns_plan(const char* node, Config& conf, Plan& plan, ResolveTrace* trace) {
  current_config(conf);
  if (!conf.complete) return kLetLibcAnswer;
  if (kLibc == Dialect::glibc && !strchr(node, '.') && resolver_env("HOSTALIASES"))
    return kLetLibcAnswer;
  build_plan(conf, str(node), plan);
  if (trace) trace->plan = plan;
  return plan.kind == Plan::invalid_name ? plan.error : 0;
}

void dns_lookup(const Config& conf, const Plan& plan, const uint16_t* qtypes, size_t nq,
                ExchangeFn exchange, LookupResult& r, ResolveTrace* trace) {
  lookup(conf, plan, qtypes, nq, exchange, r);
  count_walk(r);
  if (trace) trace->used_dns = true, trace->result = r;
}

namespace {

bool has_punycode(const char* name) {
  for (const char* p = name; *p; p++)
    if ((p == name || p[-1] == '.') && strncasecmp(p, "xn--", 4) == 0) return true;
  return false;
}

}  // namespace

int resolve_addrinfo(const char* node, const char* service, const struct addrinfo* hints,
                     struct addrinfo** res, ExchangeFn exchange, ResolveTrace* trace) {
  GaiPlan gp;
  int rc = gai_start(kLibc, node, service, hints, gp, res);
  if (rc == kGaiLibc) return kLetLibcAnswer;
  if (rc != kGaiResolve) return rc;

  HostsPlan sources = kLibc == Dialect::glibc ? current_hosts_plan() : HostsPlan::files_dns;
  if (sources == HostsPlan::libc) return kLetLibcAnswer;
  Found found;
  rc = 0;
  if (sources == HostsPlan::files_dns || sources == HostsPlan::files_dns_then_libc)
    rc = from_hosts(gp, found);
  if (rc == 0 && found.count == 0) {
    rc = from_dns(gp, exchange, found, trace);
    bool then_libc = sources == HostsPlan::files_dns_then_libc || sources == HostsPlan::dns_then_libc;
    if (rc != 0 && then_libc) rc = kLetLibcAnswer;
  }
  // AI_CANONIDN turns a punycode canonical name into Unicode: libidn2's job.
  if (rc == 0 && (gp.flags & AI_CANONNAME) && (gp.flags & kAiCanonIdn) && has_punycode(found.canon))
    rc = kLetLibcAnswer;
  if (rc == kLetLibcAnswer) return rc;
  count_lookup();
  if (rc != 0) return rc;
  return gai_finish(gp, found.addrs, found.count, found.canon[0] ? found.canon : nullptr, res);
}

Counters counters() {
  auto get = [](const uint64_t& c) { return __atomic_load_n(&c, __ATOMIC_RELAXED); };
  return Counters{get(totals.lookups), get(totals.dns_lookups), get(totals.queries),
                  get(totals.classic_queries), get(totals.autopath), get(totals.fallbacks),
                  get(totals.libc)};
}

void count_lookup() { add(totals.lookups, 1); }
void count_libc_call() { add(totals.libc, 1); }

}  // namespace rk8s
