// The public C API (include/resolv-k8s.h) over Config and Plan.
#include "resolv-k8s.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <sys/socket.h>

#include "plan/plan.h"

#define RK8S_API extern "C" __attribute__((visibility("default")))

struct rk8s_conf : rk8s::Config {};

using namespace rk8s;

static_assert(RK8S_WARN_LONG_LINE == kWarnLongLine && RK8S_WARN_EXTRA_NAMESERVER == kWarnExtraNameserver &&
              RK8S_WARN_BAD_NAMESERVER == kWarnBadNameserver && RK8S_WARN_ATTEMPTS_ZERO == kWarnAttemptsZero &&
              RK8S_WARN_OPTION_CAPPED == kWarnOptionCapped &&
              RK8S_WARN_BAD_PROJECT_OPTION == kWarnBadProjectOption && RK8S_WARN_TOO_LARGE == kWarnTooLarge);

// Appends to a caller's buffer as snprintf would: counts what does not fit.
struct TextOut {
  char* buf;
  size_t cap;
  size_t len = 0;

  void put(const char* s, size_t n) {
    for (size_t i = 0; i < n; i++, len++)
      if (len + 1 < cap) buf[len] = s[i];
  }
  void put(const char* s) { put(s, strlen(s)); }
  void put_name(const dns::Name& n) {
    char text[dns::kMaxNameText];
    put(text, dns::name_to_text(n, text, sizeof text, true));
  }
  size_t finish() {
    if (cap) buf[len < cap ? len : cap - 1] = 0;
    return len;
  }
};

RK8S_API const char* rk8s_version(void) { return "libresolv-k8s 0.1"; }

RK8S_API size_t rk8s_conf_size(void) { return sizeof(rk8s_conf); }
RK8S_API size_t rk8s_conf_align(void) { return alignof(rk8s_conf); }

RK8S_API rk8s_conf* rk8s_conf_parse(void* mem, size_t size, int dialect, const char* text, size_t len,
                                    const char* localdomain, const char* res_options,
                                    const char* hostname) {
  if (!mem || size < sizeof(rk8s_conf) || reinterpret_cast<uintptr_t>(mem) % alignof(rk8s_conf) ||
      (dialect != RK8S_DIALECT_GLIBC && dialect != RK8S_DIALECT_MUSL))
    return nullptr;
  rk8s_conf c;
  parse_conf(dialect == RK8S_DIALECT_MUSL ? Dialect::musl : Dialect::glibc, text, len,
             ConfEnv{localdomain, res_options, hostname}, c);
  memcpy(mem, &c, sizeof c);
  return static_cast<rk8s_conf*>(mem);
}

RK8S_API int rk8s_conf_dialect(const rk8s_conf* c) {
  return c->dialect == Dialect::musl ? RK8S_DIALECT_MUSL : RK8S_DIALECT_GLIBC;
}
RK8S_API unsigned rk8s_conf_ndots(const rk8s_conf* c) { return c->opt.ndots; }
RK8S_API unsigned rk8s_conf_timeout(const rk8s_conf* c) { return c->opt.timeout; }
RK8S_API unsigned rk8s_conf_attempts(const rk8s_conf* c) { return c->opt.attempts; }
RK8S_API unsigned rk8s_conf_warnings(const rk8s_conf* c) { return c->warnings; }
RK8S_API int rk8s_conf_complete(const rk8s_conf* c) { return c->complete; }
RK8S_API int rk8s_conf_autopath(const rk8s_conf* c) { return c->opt.autopath; }
RK8S_API unsigned rk8s_conf_autopath_code(const rk8s_conf* c) { return c->opt.autopath_code; }

RK8S_API size_t rk8s_conf_nameserver_count(const rk8s_conf* c) { return c->ns.count; }

RK8S_API size_t rk8s_conf_nameserver(const rk8s_conf* c, size_t i, char* out, size_t cap) {
  TextOut t{out, cap};
  if (i < c->ns.count) {
    char text[INET6_ADDRSTRLEN + 16];
    t.put(text, ip_to_text(c->ns[i], text, sizeof text));
  }
  return t.finish();
}

RK8S_API size_t rk8s_conf_search_count(const rk8s_conf* c) { return c->search_count(); }

RK8S_API size_t rk8s_conf_search(const rk8s_conf* c, size_t i, char* out, size_t cap) {
  TextOut t{out, cap};
  if (i < c->search_count()) t.put(c->search(i).data, c->search(i).size);
  return t.finish();
}

RK8S_API size_t rk8s_plan(const rk8s_conf* c, const char* name, char* out, size_t cap) {
  TextOut t{out, cap};
  if (!c->complete) {
    t.put("libc: resolv.conf beyond our limits\n");
    return t.finish();
  }
  Plan plan;
  build_plan(*c, str(name), plan);
  if (plan.kind == Plan::invalid_name) {
    t.put("invalid: EAI_NONAME\n");
    return t.finish();
  }
  dns::Name n;
  for (size_t i = 0; candidate_name(*c, plan, i, n); i++) {
    t.put_name(n);
    t.put("\n");
  }
  autopath::QueryOption opt;
  t.put("autopath: ");
  if (!c->opt.autopath) {
    t.put("off");
  } else if (!autopath_query(*c, plan, 0, n, opt)) {
    t.put("none");
  } else {
    for (size_t i = 0; i < opt.count; i++) {
      if (i) t.put(" ");
      t.put_name(opt.suffix[i]);
    }
  }
  t.put("\n");
  return t.finish();
}
