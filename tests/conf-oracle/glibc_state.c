// SPDX-License-Identifier: Apache-2.0
#include "glibc_state.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

/* _res.dnsrch holds at most 6 domains in 256 bytes, but glibc 2.36 searches
 * its whole internal list. That list is reachable only through the
 * GLIBC_PRIVATE resolver context; these are the leading members of its
 * struct resolv_context and struct resolv_conf (resolv/resolv_context.h,
 * resolv/resolv_conf.h), which is all we read. */
struct glibc_conf_head {
	size_t refcount;
	const struct sockaddr **nameservers;
	size_t nameserver_count;
	const char *const *search;
	size_t search_count;
};
struct glibc_context_head {
	struct __res_state *resp;
	struct glibc_conf_head *conf;
};
struct glibc_context_head *__resolv_context_get_override(struct __res_state *);
void __resolv_context_put(struct glibc_context_head *);

/* glibc's walk treats an empty domain as the root, like "."; res_send waits
 * 1 s for a timeout <= 0 and tries nothing for attempts <= 0. */
static void print_domain(FILE *out, const char *d) {
	fprintf(out, "search %s\n", *d ? d : ".");
}
static int at_least_0(int v) { return v < 0 ? 0 : v; }

int print_glibc_state(FILE *out, struct __res_state *st) {
	fprintf(out, "ndots %u\ntimeout %d\nattempts %d\noptions", st->ndots, at_least_0(st->retrans),
		at_least_0(st->retry));
	static const struct { unsigned long bit; const char *name; } flags[] = {
		{RES_ROTATE, "rotate"}, {RES_USE_EDNS0, "edns0"}, {RES_SNGLKUP, "single-request"},
		{RES_SNGLKUPREOP, "single-request-reopen"}, {RES_NOTLDQUERY, "no-tld-query"},
		{RES_NORELOAD, "no-reload"}, {RES_USEVC, "use-vc"}, {RES_TRUSTAD, "trust-ad"},
		{RES_NOAAAA, "no-aaaa"},
	};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (st->options & flags[i].bit) fprintf(out, " %s", flags[i].name);
	fprintf(out, "\n");

	for (int i = 0; i < st->nscount; i++) {
		char buf[INET6_ADDRSTRLEN];
		if (st->nsaddr_list[i].sin_family == AF_INET) {
			fprintf(out, "nameserver %s\n", inet_ntop(AF_INET, &st->nsaddr_list[i].sin_addr, buf, sizeof buf));
			continue;
		}
		const struct sockaddr_in6 *sa = st->_u._ext.nsaddrs[i];
		fprintf(out, "nameserver %s", inet_ntop(AF_INET6, &sa->sin6_addr, buf, sizeof buf));
		if (sa->sin6_scope_id) fprintf(out, "%%%u", (unsigned)sa->sin6_scope_id);
		fprintf(out, "\n");
	}

	struct glibc_context_head *ctx = __resolv_context_get_override(st);
	if (!ctx || !ctx->conf) {
		fprintf(stderr, "no resolver context\n");
		__resolv_context_put(ctx);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < ctx->conf->search_count; i++) {
		/* The layout check: dnsrch must be a prefix of the list. */
		if (i < MAXDNSRCH && st->dnsrch[i] && strcmp(st->dnsrch[i], ctx->conf->search[i]) != 0) {
			fprintf(stderr, "dnsrch[%zu] differs from the context's list\n", i);
			rc = -1;
			break;
		}
		print_domain(out, ctx->conf->search[i]);
	}
	__resolv_context_put(ctx);
	return rc;
}
