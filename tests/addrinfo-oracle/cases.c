// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE
#include "cases.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

static int word_value(const char *w, const char *const names[], const int values[], int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(w, names[i])) return values[i];
	return (int)strtol(w, NULL, 0);
}

static int family_of(const char *w)
{
	static const char *const names[] = { "unspec", "inet", "inet6" };
	static const int values[] = { AF_UNSPEC, AF_INET, AF_INET6 };
	return word_value(w, names, values, 3);
}

static int socktype_of(const char *w)
{
	static const char *const names[] = { "stream", "dgram", "raw", "seqpacket" };
	static const int values[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET };
	return word_value(w, names, values, 4);
}

static int flags_of(char *w)
{
	static const char *const names[] = { "passive", "canonname", "numerichost",
		"numericserv", "addrconfig", "v4mapped", "all" };
	static const int values[] = { AI_PASSIVE, AI_CANONNAME, AI_NUMERICHOST,
		AI_NUMERICSERV, AI_ADDRCONFIG, AI_V4MAPPED, AI_ALL };
	int flags = 0;
	for (char *f = strtok(w, "|"); f; f = strtok(NULL, "|"))
		flags |= word_value(f, names, values, 7);
	return flags;
}

static void print_result(FILE *out, const struct addrinfo *ai)
{
	char text[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0, scope = 0;
	if (ai->ai_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)ai->ai_addr;
		inet_ntop(AF_INET, &sin->sin_addr, text, sizeof text);
		port = ntohs(sin->sin_port);
	} else if (ai->ai_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)ai->ai_addr;
		inet_ntop(AF_INET6, &sin6->sin6_addr, text, sizeof text);
		port = ntohs(sin6->sin6_port);
		scope = sin6->sin6_scope_id;
	}
	fprintf(out, "%d %d %d %s%%%u %u len=%u canon=%s\n", ai->ai_family, ai->ai_socktype,
		ai->ai_protocol, text, scope, port, (unsigned)ai->ai_addrlen,
		ai->ai_canonname ? ai->ai_canonname : "-");
}

int parse_case(const char *line, struct gai_case *c)
{
	char fam[16], st[16], proto[16], flags[128];
	if (line[0] == '#' || sscanf(line, "%255s %63s %15s %15s %15s %127s", c->node, c->service,
				     fam, st, proto, flags) != 6)
		return 0;
	memset(&c->hints, 0, sizeof c->hints);
	c->hints.ai_family = family_of(fam);
	c->hints.ai_socktype = socktype_of(st);
	c->hints.ai_protocol = atoi(proto);
	c->hints.ai_flags = flags_of(flags);
	c->has_node = strcmp(c->node, "-") != 0;
	c->has_service = strcmp(c->service, "-") != 0;
	c->has_hints = strcmp(fam, "-") != 0;
	return 1;
}

void print_case(FILE *out, const struct gai_case *c, gai_fn *gai, free_fn *release)
{
	struct addrinfo *res = NULL;
	int rc = gai(c->has_node ? c->node : NULL, c->has_service ? c->service : NULL,
		     c->has_hints ? &c->hints : NULL, &res);
	if (rc) {
		fprintf(out, "error %d\n", rc);
		return;
	}
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next)
		print_result(out, ai);
	release(res);
}

void run_cases(FILE *in, gai_fn *gai, free_fn *release)
{
	char line[512];
	int n = 0;
	struct gai_case c;
	while (fgets(line, sizeof line, in)) {
		if (!parse_case(line, &c)) continue;
		printf("#%d %s", ++n, line);
		print_case(stdout, &c, gai, release);
	}
}
