// SPDX-License-Identifier: Apache-2.0
/* The addrinfo oracle's case runner, shared by the libc programs and ours
 * (and the differential fuzz targets in fuzz/diff/): reads cases, calls the
 * given getaddrinfo, prints comparable lines. */
#pragma once

#include <netdb.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int gai_fn(const char *node, const char *service, const struct addrinfo *hints,
		   struct addrinfo **res);
typedef void free_fn(struct addrinfo *ai);

/* One case: NODE SERVICE FAMILY SOCKTYPE PROTOCOL FLAGS, "-" for NULL
 * (node, service) or for no hints (family). */
struct gai_case {
	char node[256], service[64];
	struct addrinfo hints;
	int has_node, has_service, has_hints;
};
/* 0 for a line that is no case: blank, '#', fewer fields. */
int parse_case(const char *line, struct gai_case *c);
/* Calls `gai` on the case and prints "error N" or one line per result. */
void print_case(FILE *out, const struct gai_case *c, gai_fn *gai, free_fn *release);

/* Each line of `in` a case, blank and '#' lines skipped. For each case
 * prints "#N" and the line, then what print_case prints. */
void run_cases(FILE *in, gai_fn *gai, free_fn *release);

#ifdef __cplusplus
}
#endif
