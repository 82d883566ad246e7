// SPDX-License-Identifier: Apache-2.0
// The public C API over Config: parse a resolv.conf into the caller's
// memory, and read it back.
#include <netinet/in.h>

#include "api/api.h"

using namespace rk8s;

static_assert(RK8S_WARN_LONG_LINE == kWarnLongLine && RK8S_WARN_EXTRA_NAMESERVER == kWarnExtraNameserver &&
              RK8S_WARN_BAD_NAMESERVER == kWarnBadNameserver && RK8S_WARN_ATTEMPTS_ZERO == kWarnAttemptsZero &&
              RK8S_WARN_OPTION_CAPPED == kWarnOptionCapped &&
              RK8S_WARN_BAD_PROJECT_OPTION == kWarnBadProjectOption && RK8S_WARN_TOO_LARGE == kWarnTooLarge);

RK8S_API const char* rk8s_version(void) { return "libresolv-k8s " RK8S_VERSION; }

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

RK8S_API unsigned rk8s_conf_options(const rk8s_conf* c) {
  const Options& o = c->opt;
  return (o.rotate ? RK8S_OPT_ROTATE : 0) | (o.edns0 ? RK8S_OPT_EDNS0 : 0) |
         (o.single_request ? RK8S_OPT_SINGLE_REQUEST : 0) |
         (o.single_request_reopen ? RK8S_OPT_SINGLE_REQUEST_REOPEN : 0) |
         (o.no_tld_query ? RK8S_OPT_NO_TLD_QUERY : 0) | (o.no_reload ? RK8S_OPT_NO_RELOAD : 0) |
         (o.use_vc ? RK8S_OPT_USE_VC : 0) | (o.trust_ad ? RK8S_OPT_TRUST_AD : 0) |
         (o.no_aaaa ? RK8S_OPT_NO_AAAA : 0);
}

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
