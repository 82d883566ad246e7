// SPDX-License-Identifier: Apache-2.0
/* gai-probe: the libc's answer for each NAME, as text two runs can diff.
 *
 *   gai-probe [-f inet|inet6|unspec] [-t stream|dgram|raw|0] [-p PROTO_NUMBER]
 *             [-s SERVICE] [-F passive,canonname,numerichost,numericserv,
 *             addrconfig,v4mapped,all] [-n N] [-T|-L] [-M] [-i MS] NAME...
 *   gai-probe -H [-R] [-f inet|inet6] [-n N] [-T|-L] [-M] [-i MS] NAME...
 *
 * getaddrinfo: "NAME: error EAI_X", or one line per result in result order,
 * "NAME: family socktype protocol address port [canon=CANON]".
 * -H: gethostbyname (gethostbyname2 with -f), -R: their _r variants;
 * "NAME: name H_NAME family", "NAME: alias A", "NAME: address A", or
 * "NAME: error h_errno=X" (with -R also "ret=N", the function's result).
 * -n N repeats each lookup N times and prints the last. -T prints the wall
 * time of all the lookups, in microseconds, on stderr; -L that of each
 * NAME's, a line each. -M prints the process's peak resident memory after
 * the lookups, "peak_rss_kib N" (VmHWM), on stderr. -i MS paces the NAMEs
 * at a steady rate: the k-th starts MS * k milliseconds after the first
 * (at once when the one before ran late). Exit status 0, or 2 for a bad
 * command line. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct name { int value; const char *name; };

#define N(x) { x, #x }
static const struct name eai_names[] = {
	N(EAI_BADFLAGS), N(EAI_NONAME), N(EAI_AGAIN), N(EAI_FAIL), N(EAI_FAMILY),
	N(EAI_SOCKTYPE), N(EAI_SERVICE), N(EAI_MEMORY), N(EAI_SYSTEM), N(EAI_OVERFLOW),
#ifdef EAI_NODATA
	N(EAI_NODATA),
#endif
#ifdef EAI_ADDRFAMILY
	N(EAI_ADDRFAMILY),
#endif
	{ 0, 0 }
};
static const struct name herr_names[] = {
	N(HOST_NOT_FOUND), N(TRY_AGAIN), N(NO_RECOVERY), N(NO_DATA), { 0, 0 }
};
#undef N
static const struct name families[] = {
	{ AF_INET, "inet" }, { AF_INET6, "inet6" }, { AF_UNSPEC, "unspec" }, { 0, 0 }
};
static const struct name socktypes[] = {
	{ SOCK_STREAM, "stream" }, { SOCK_DGRAM, "dgram" }, { SOCK_RAW, "raw" }, { 0, "0" }, { 0, 0 }
};
static const struct name flags[] = {
	{ AI_PASSIVE, "passive" }, { AI_CANONNAME, "canonname" },
	{ AI_NUMERICHOST, "numerichost" }, { AI_NUMERICSERV, "numericserv" },
	{ AI_ADDRCONFIG, "addrconfig" }, { AI_V4MAPPED, "v4mapped" }, { AI_ALL, "all" },
	{ 0, 0 }
};

static void usage(void)
{
	fputs("usage: gai-probe [-f inet|inet6|unspec] [-t stream|dgram|raw|0] [-p PROTO] [-s SERVICE]\n"
	      "                 [-F flag,...] [-n N] [-T|-L] [-M] [-i MS] NAME...\n"
	      "       gai-probe -H [-R] [-f inet|inet6] [-n N] [-T|-L] [-M] [-i MS] NAME...\n", stderr);
	exit(2);
}

static int value_of(const struct name *table, const char *name)
{
	for (; table->name; table++)
		if (!strcmp(table->name, name)) return table->value;
	usage();
	return 0;
}

/* Unknown values print as their number, into buf. */
static const char *name_of(const struct name *table, int value, char *buf)
{
	for (; table->name; table++)
		if (table->value == value) return table->name;
	sprintf(buf, "%d", value);
	return buf;
}

static int parse_flags(char *list)
{
	int ai_flags = 0;
	for (char *f = strtok(list, ","); f; f = strtok(0, ","))
		ai_flags |= value_of(flags, f);
	return ai_flags;
}

static void print_address(int family, const void *addr, char *buf, size_t len)
{
	if (!inet_ntop(family, addr, buf, len)) snprintf(buf, len, "?");
}

static void print_addrinfo(const char *name, const struct addrinfo *ai)
{
	char family[16], socktype[16], address[INET6_ADDRSTRLEN + 16];
	int port = 0;

	for (; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET) {
			const struct sockaddr_in *sin = (const void *)ai->ai_addr;
			print_address(AF_INET, &sin->sin_addr, address, sizeof address);
			port = ntohs(sin->sin_port);
		} else if (ai->ai_family == AF_INET6) {
			const struct sockaddr_in6 *sin6 = (const void *)ai->ai_addr;
			print_address(AF_INET6, &sin6->sin6_addr, address, INET6_ADDRSTRLEN);
			if (sin6->sin6_scope_id)
				sprintf(address + strlen(address), "%%%u", (unsigned)sin6->sin6_scope_id);
			port = ntohs(sin6->sin6_port);
		} else {
			strcpy(address, "?");
		}
		printf("%s: %s %s %d %s %d", name, name_of(families, ai->ai_family, family),
		       name_of(socktypes, ai->ai_socktype, socktype), ai->ai_protocol, address, port);
		if (ai->ai_canonname) printf(" canon=%s", ai->ai_canonname);
		putchar('\n');
	}
}

static void probe_getaddrinfo(const char *name, const char *service,
                              const struct addrinfo *hints, int repeat)
{
	struct addrinfo *res = 0;
	char buf[16];
	int err = 0;

	for (int i = 0; i < repeat; i++) {
		if (res) freeaddrinfo(res);
		res = 0;
		err = getaddrinfo(name, service, hints, &res);
	}
	if (err) printf("%s: error %s\n", name, name_of(eai_names, err, buf));
	else print_addrinfo(name, res);
	if (res) freeaddrinfo(res);
}

static void print_hostent(const char *name, const struct hostent *h)
{
	char family[16], address[INET6_ADDRSTRLEN];

	printf("%s: name %s %s\n", name, h->h_name, name_of(families, h->h_addrtype, family));
	for (char **a = h->h_aliases; *a; a++)
		printf("%s: alias %s\n", name, *a);
	for (char **a = h->h_addr_list; *a; a++) {
		print_address(h->h_addrtype, *a, address, sizeof address);
		printf("%s: address %s\n", name, address);
	}
}

/* family < 0: plain gethostbyname. */
static void probe_gethostbyname(const char *name, int family, int reentrant, int repeat)
{
	static char *buf;
	static size_t buflen = 1024;
	struct hostent storage, *h = 0;
	int herr = 0, ret = 0;
	char number[16];

	for (int i = 0; i < repeat; i++) {
		if (!reentrant) {
			h = family < 0 ? gethostbyname(name) : gethostbyname2(name, family);
			herr = h_errno;
			continue;
		}
		do {
			if (ret == ERANGE) buflen *= 2;
			if (!(buf = realloc(buf, buflen))) { perror("gai-probe"); exit(1); }
			ret = family < 0 ? gethostbyname_r(name, &storage, buf, buflen, &h, &herr)
			                 : gethostbyname2_r(name, family, &storage, buf, buflen, &h, &herr);
		} while (ret == ERANGE);
	}
	if (h) print_hostent(name, h);
	else if (reentrant) printf("%s: error h_errno=%s ret=%d\n", name, name_of(herr_names, herr, number), ret);
	else printf("%s: error h_errno=%s\n", name, name_of(herr_names, herr, number));
}

/* VmHWM of /proc/self/status: the most resident memory the process had. */
static void print_peak_rss(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "VmHWM:", 6)) fprintf(stderr, "peak_rss_kib %ld\n", strtol(line + 6, 0, 10));
	if (f) fclose(f);
}

static long long micros(struct timespec from, struct timespec to) {
	return (long long)(to.tv_sec - from.tv_sec) * 1000000 + (to.tv_nsec - from.tv_nsec) / 1000;
}

/* Sleeps until MS * K milliseconds after START, unless that is past. */
static void pace(struct timespec start, long ms, int k)
{
	long long ns = (long long)ms * k * 1000000 + start.tv_nsec;
	struct timespec at = { start.tv_sec + ns / 1000000000, ns % 1000000000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, 0) == EINTR) {}
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC };
	const char *service = 0;
	int hostent = 0, reentrant = 0, timed = 0, family = -1, repeat = 1, rss = 0, c;
	long interval = 0;

	while ((c = getopt(argc, argv, "f:t:p:s:F:n:HRTLMi:")) != -1) {
		switch (c) {
		case 'f': hints.ai_family = family = value_of(families, optarg); break;
		case 't': hints.ai_socktype = value_of(socktypes, optarg); break;
		case 'p': hints.ai_protocol = atoi(optarg); break;
		case 's': service = optarg; break;
		case 'F': hints.ai_flags = parse_flags(optarg); break;
		case 'n': if ((repeat = atoi(optarg)) < 1) usage(); break;
		case 'H': hostent = 1; break;
		case 'R': reentrant = 1; break;
		case 'T': timed = 1; break;
		case 'L': timed = 2; break;
		case 'M': rss = 1; break;
		case 'i': if ((interval = atol(optarg)) < 1) usage(); break;
		default: usage();
		}
	}
	if (optind == argc || (reentrant && !hostent)) usage();

	struct timespec t0, lap, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	lap = t0;
	for (int i = optind; i < argc; i++) {
		if (interval) {
			pace(t0, interval, i - optind);
			clock_gettime(CLOCK_MONOTONIC, &lap);
		}
		if (hostent) probe_gethostbyname(argv[i], family, reentrant, repeat);
		else probe_getaddrinfo(argv[i], service, &hints, repeat);
		fflush(stdout);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (timed == 2) fprintf(stderr, "%lld\n", micros(lap, t1));
		lap = t1;
	}
	if (timed == 1) fprintf(stderr, "%lld\n", micros(t0, t1));
	if (rss) print_peak_rss();
	return 0;
}
