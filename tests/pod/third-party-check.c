// SPDX-License-Identifier: Apache-2.0
/* Links c-ares and mimalloc as the library will: c-ares allocating through
 * mimalloc, given every option so it reads no configuration file, and
 * mimalloc used from a second thread (its thread-local heap). Built as a
 * static musl program and as a glibc .so preloaded into /bin/true. */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <ares.h>
#include <mimalloc.h>

#define CHECK(x) do if (!(x)) { fprintf(stderr, "third-party-check: %s failed\n", #x); return 1; } while (0)

static void *allocate_in_thread(void *arg)
{
	char *p = mi_malloc(100000);
	if (p) memset(p, 1, 100000);
	mi_free(p);
	return p ? arg : 0;
}

static int check(void)
{
	struct in_addr server;
	struct ares_options opts = { .flags = ARES_FLAG_NOCHECKRESP, .timeout = 1000,
		.tries = 1, .ndots = 1, .nservers = 1, .servers = &server,
		.ndomains = 0, .lookups = "b" };
	int mask = ARES_OPT_FLAGS | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES | ARES_OPT_NDOTS |
		ARES_OPT_SERVERS | ARES_OPT_DOMAINS | ARES_OPT_LOOKUPS | ARES_OPT_SORTLIST;
	struct ares_addr_node *servers;
	ares_channel channel;
	unsigned char *query;
	int query_len;
	pthread_t t;
	void *ret;

	inet_pton(AF_INET, "127.0.0.53", &server);
	CHECK(ares_library_init_mem(ARES_LIB_INIT_ALL, mi_malloc, mi_free, mi_realloc) == ARES_SUCCESS);
	CHECK(ares_init_options(&channel, &opts, mask) == ARES_SUCCESS);
	CHECK(ares_get_servers(channel, &servers) == ARES_SUCCESS);
	CHECK(servers && !servers->next && servers->addr.addr4.s_addr == server.s_addr);
	ares_free_data(servers);
	CHECK(ares_create_query("www.example.com", 1, 1, 0x1234, 1, &query, &query_len, 0) == ARES_SUCCESS);
	CHECK(query_len == 33 && mi_usable_size(query) >= 33);
	ares_free_string(query);
	ares_destroy(channel);
	ares_library_cleanup();

	CHECK(pthread_create(&t, 0, allocate_in_thread, &t) == 0);
	CHECK(pthread_join(t, &ret) == 0 && ret == &t);
	printf("third-party-check: c-ares %s and mimalloc %d work\n", ares_version(0), mi_version());
	return 0;
}

#ifdef PRELOAD
__attribute__((constructor)) static void at_load(void)
{
	if (check()) _exit(1);
}
#else
int main(void)
{
	return check();
}
#endif
