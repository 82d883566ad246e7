// SPDX-License-Identifier: Apache-2.0
/* The outcome of one lookup, as the fault programs print it. */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>

/* NAME looked up (AF_UNSPEC, stream): its first address, or "error N". */
static void outcome_of_lookup(const char *name, char *out, size_t len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
	int err = getaddrinfo(name, 0, &hints, &res);
	if (err) {
		snprintf(out, len, "error %d", err);
		return;
	}
	const void *addr = res->ai_family == AF_INET
		? (const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr
		: (const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr;
	if (!inet_ntop(res->ai_family, addr, out, len)) snprintf(out, len, "?");
	freeaddrinfo(res);
}
