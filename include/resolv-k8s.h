// SPDX-License-Identifier: Apache-2.0
/* libresolv-k8s: the public C API.
 *
 * Nothing here allocates: the caller provides the memory. Usable from C and
 * C++, from the glibc and musl builds and from a static musl link. */
#ifndef RESOLV_K8S_H
#define RESOLV_K8S_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RK8S_VERSION "0.2.0"

#define RK8S_DIALECT_GLIBC 0
#define RK8S_DIALECT_MUSL 1

/* Warnings about a resolv.conf (rk8s_conf_warnings); none stops the parse. */
#define RK8S_WARN_LONG_LINE 0x01         /* musl would skip a line over 255 bytes; we read it */
#define RK8S_WARN_EXTRA_NAMESERVER 0x02  /* more than 3 nameservers: the rest ignored */
#define RK8S_WARN_BAD_NAMESERVER 0x04    /* a nameserver line the libc drops */
#define RK8S_WARN_ATTEMPTS_ZERO 0x08     /* glibc sends nothing; musl crashes (we use 1) */
#define RK8S_WARN_OPTION_CAPPED 0x10     /* ndots, timeout or attempts above the libc's cap */
#define RK8S_WARN_BAD_PROJECT_OPTION 0x20 /* a k8s-autopath word we could not read */
#define RK8S_WARN_TOO_LARGE 0x40         /* beyond our limits: lookups go to libc */

/* Options set in resolv.conf (rk8s_conf_options), by their words. */
#define RK8S_OPT_ROTATE 0x001
#define RK8S_OPT_EDNS0 0x002
#define RK8S_OPT_SINGLE_REQUEST 0x004
#define RK8S_OPT_SINGLE_REQUEST_REOPEN 0x008
#define RK8S_OPT_NO_TLD_QUERY 0x010
#define RK8S_OPT_NO_RELOAD 0x020
#define RK8S_OPT_USE_VC 0x040
#define RK8S_OPT_TRUST_AD 0x080
#define RK8S_OPT_NO_AAAA 0x100

/* The flags of the autopath option (rk8s_autopath_flags). */
#define RK8S_AUTOPATH_Q 0x01              /* a query */
#define RK8S_AUTOPATH_PAIRED 0x02         /* A and AAAA asked together: a candidate matches on either */
#define RK8S_AUTOPATH_STOP_ON_EXISTS 0x04 /* a name that exists without the type asked ends the walk */
#define RK8S_AUTOPATH_BOTH 0x08           /* one query standing for a PAIRED pair */
#define RK8S_AUTOPATH_PAST_NODATA 0x10    /* walk past names without the type asked; report the first */

/* A parsed resolv.conf, in memory the caller owns. */
typedef struct rk8s_conf rk8s_conf;

const char *rk8s_version(void); /* "libresolv-k8s " RK8S_VERSION */

/* Bytes, and alignment, rk8s_conf_parse needs. */
size_t rk8s_conf_size(void);
size_t rk8s_conf_align(void);

/* Reads `len` bytes of resolv.conf `text` as `dialect` would, with the
 * environment glibc also reads (LOCALDOMAIN, RES_OPTIONS; NULL = unset;
 * ignored by musl) and the host name (glibc's default search domain; may be
 * NULL). Returns `mem` as a conf, or NULL when `mem` is too small or
 * misaligned or `dialect` unknown. Never fails on the text itself. */
rk8s_conf *rk8s_conf_parse(void *mem, size_t size, int dialect, const char *text, size_t len,
                           const char *localdomain, const char *res_options,
                           const char *hostname);

int rk8s_conf_dialect(const rk8s_conf *c);
unsigned rk8s_conf_ndots(const rk8s_conf *c);
unsigned rk8s_conf_timeout(const rk8s_conf *c);  /* seconds */
unsigned rk8s_conf_attempts(const rk8s_conf *c);
unsigned rk8s_conf_warnings(const rk8s_conf *c); /* RK8S_WARN_* bits */
/* 0 when the file went beyond what the library holds: it then passes every
 * lookup to libc. */
int rk8s_conf_complete(const rk8s_conf *c);
int rk8s_conf_autopath(const rk8s_conf *c); /* 1 on, 0 off (options k8s-autopath:on|off) */
unsigned rk8s_conf_autopath_code(const rk8s_conf *c);
unsigned rk8s_conf_options(const rk8s_conf *c); /* RK8S_OPT_* bits */

/* The text functions below write at most `cap` bytes, always NUL-terminated
 * when cap > 0, and return the length the whole text needs (as snprintf).
 * An index out of range gives the empty string. */
size_t rk8s_conf_nameserver_count(const rk8s_conf *c);
size_t rk8s_conf_nameserver(const rk8s_conf *c, size_t i, char *out, size_t cap); /* "10.96.0.10", "fe80::1%2" */
size_t rk8s_conf_search_count(const rk8s_conf *c);
size_t rk8s_conf_search(const rk8s_conf *c, size_t i, char *out, size_t cap);

/* The DNS plan for `name`, one line each:
 *   every candidate the libc would query, in order, absolute ("web.ns.svc.cluster.local.");
 *   then "autopath: " and the suffix list of the autopath query ("ns.svc.cluster.local. ."),
 *   or "autopath: none" (one candidate, or more than the option holds),
 *   or "autopath: off" (switched off in resolv.conf).
 * A name the libc never asks DNS for gives the single line "invalid: EAI_NONAME";
 * an incomplete conf the single line "libc: resolv.conf beyond our limits".
 * Numeric addresses and /etc/hosts are not considered. */
size_t rk8s_plan(const rk8s_conf *c, const char *name, char *out, size_t cap);

/* The same plan piece by piece. A conf that is not complete has none: no
 * error, no candidate, no autopath query. */
/* 0; for a name the libc never asks DNS for, the EAI_* getaddrinfo returns
 * (it then has no candidate). */
int rk8s_plan_error(const rk8s_conf *c, const char *name);
size_t rk8s_plan_candidate_count(const rk8s_conf *c, const char *name);
size_t rk8s_plan_candidate(const rk8s_conf *c, const char *name, size_t i, char *out, size_t cap);
/* The autopath query standing for the candidates asks for candidate 0; its
 * option lists the suffix of every candidate, in order, written as on the
 * "autopath: " line of rk8s_plan. The empty string when no such query goes
 * out: autopath off, fewer than two candidates, or more than the option
 * holds. */
size_t rk8s_autopath_suffixes(const rk8s_conf *c, const char *name, char *out, size_t cap);
/* The option's flags (RK8S_AUTOPATH_*) in a lookup of `family` (AF_INET,
 * AF_INET6 or AF_UNSPEC). Once the server has shown support, a PAIRED pair
 * goes out as one query with RK8S_AUTOPATH_BOTH added. */
unsigned rk8s_autopath_flags(const rk8s_conf *c, int family);

#ifdef __cplusplus
}
#endif

#endif
