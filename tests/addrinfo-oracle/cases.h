/* The addrinfo oracle's case runner, shared by the libc programs and ours:
 * reads cases, calls the given getaddrinfo, prints comparable lines. */
#pragma once

#include <netdb.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int gai_fn(const char *node, const char *service, const struct addrinfo *hints,
		   struct addrinfo **res);
typedef void free_fn(struct addrinfo *ai);

/* Each line of `in`: NODE SERVICE FAMILY SOCKTYPE PROTOCOL FLAGS, "-" for
 * NULL (node, service) or for no hints (family). Blank and '#' lines are
 * skipped. For each case prints "#N" then "error N" or one line per result. */
void run_cases(FILE *in, gai_fn *gai, free_fn *release);

#ifdef __cplusplus
}
#endif
