/* Prints what glibc's res_init() made of /etc/resolv.conf and the
 * environment, in the form conf_print prints our Config. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdio.h>
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
struct glibc_context_head *__resolv_context_get(void);
void __resolv_context_put(struct glibc_context_head *);

/* glibc's walk treats an empty domain as the root, like "."; res_send waits
 * 1 s for a timeout <= 0 and tries nothing for attempts <= 0. */
static void print_domain(const char *d) {
	printf("search %s\n", *d ? d : ".");
}
static int at_least_0(int v) { return v < 0 ? 0 : v; }

int main(void) {
	if (res_init() != 0) {
		perror("res_init");
		return 1;
	}
	printf("ndots %u\ntimeout %d\nattempts %d\noptions", _res.ndots, at_least_0(_res.retrans),
	       at_least_0(_res.retry));
	static const struct { unsigned long bit; const char *name; } flags[] = {
		{RES_ROTATE, "rotate"}, {RES_USE_EDNS0, "edns0"}, {RES_SNGLKUP, "single-request"},
		{RES_SNGLKUPREOP, "single-request-reopen"}, {RES_NOTLDQUERY, "no-tld-query"},
		{RES_NORELOAD, "no-reload"}, {RES_USEVC, "use-vc"}, {RES_TRUSTAD, "trust-ad"},
		{RES_NOAAAA, "no-aaaa"},
	};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (_res.options & flags[i].bit) printf(" %s", flags[i].name);
	printf("\n");

	for (int i = 0; i < _res.nscount; i++) {
		char buf[INET6_ADDRSTRLEN];
		if (_res.nsaddr_list[i].sin_family == AF_INET) {
			printf("nameserver %s\n", inet_ntop(AF_INET, &_res.nsaddr_list[i].sin_addr, buf, sizeof buf));
			continue;
		}
		const struct sockaddr_in6 *sa = _res._u._ext.nsaddrs[i];
		printf("nameserver %s", inet_ntop(AF_INET6, &sa->sin6_addr, buf, sizeof buf));
		if (sa->sin6_scope_id) printf("%%%u", (unsigned)sa->sin6_scope_id);
		printf("\n");
	}

	struct glibc_context_head *ctx = __resolv_context_get();
	if (!ctx || !ctx->conf) {
		fprintf(stderr, "no resolver context\n");
		return 1;
	}
	for (size_t i = 0; i < ctx->conf->search_count; i++) {
		/* The layout check: _res.dnsrch must be a prefix of the list. */
		if (i < MAXDNSRCH && _res.dnsrch[i] && strcmp(_res.dnsrch[i], ctx->conf->search[i]) != 0) {
			fprintf(stderr, "dnsrch[%zu] differs from the context's list\n", i);
			return 1;
		}
		print_domain(ctx->conf->search[i]);
	}
	__resolv_context_put(ctx);
	return 0;
}
