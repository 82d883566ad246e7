// SPDX-License-Identifier: Apache-2.0
/* A static musl program with its own c-ares and mimalloc, linked with
 * libresolv-k8s.a: the link must not clash, and all three must work. */
#include <ares.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

void *mi_malloc(size_t size);
void mi_free(void *p);

int main(void)
{
	struct addrinfo hints, *res;
	void *p = mi_malloc(64);
	if (!p || ares_library_init(ARES_LIB_INIT_ALL) != ARES_SUCCESS) return 1;
	memset(&hints, 0, sizeof hints);
	hints.ai_flags = AI_NUMERICHOST;
	hints.ai_family = AF_INET;
	if (getaddrinfo("192.0.2.1", 0, &hints, &res)) return 1;
	printf("%s %d\n", ares_version(0), res->ai_family == AF_INET);
	freeaddrinfo(res);
	ares_library_cleanup();
	mi_free(p);
	return 0;
}
