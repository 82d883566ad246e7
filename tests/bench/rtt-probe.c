// SPDX-License-Identifier: Apache-2.0
/* rtt-probe: the bare UDP round trips under a resolver's lookups, for the
 * node benchmark's floor (tests/bench/node_bench.sh).
 *
 *   rtt-probe relay LISTEN SERVER LOG
 *   rtt-probe replay [-k|-l] SERVER LOG
 *
 * relay: forwards the datagrams clients send to LISTEN:53 to SERVER:53 and
 * the replies back, and appends each query to LOG as a line "PORT HEX" (the
 * client's source port, the datagram), until killed; says "listening" on
 * stderr once bound. A pod pointed at it records the queries its lookups
 * send.
 * replay: sends LOG's queries to SERVER:53 as their client did, the queries
 * of one socket (consecutive lines of one port) together on a new socket of
 * their own, connected, then reads a reply to each and closes it: what a
 * lookup costs without the resolver's own work. -k: one socket for all.
 * -l: each exchange with the system calls glibc's getaddrinfo makes around
 * it: resolv.conf and nsswitch.conf stat'ed, /etc/hosts read, and with
 * more than one address in the reply (answer or additional records) the
 * sort's route probes, a socket per run of one family, connected to each
 * address and asked its name (rfc3484_sort's try_connect).
 * Prints the wall time of all the exchanges in microseconds; exits 1 when a
 * reply is missing (1 s each). IPv4 addresses. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct query { unsigned port; size_t len; unsigned char msg[512]; };

static void usage(void)
{
	fputs("usage: rtt-probe relay LISTEN SERVER LOG\n"
	      "       rtt-probe replay [-k] SERVER LOG\n", stderr);
	exit(2);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static struct sockaddr_in dns_addr(const char *ip)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(53) };
	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) usage();
	return a;
}

static int udp_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) die("socket");
	return fd;
}

static void relay(const char *listen, const char *server, const char *log)
{
	struct sockaddr_in at = dns_addr(listen), to = dns_addr(server);
	static struct sockaddr_in client[65536];  /* by query ID */
	FILE *out = fopen(log, "a");
	int in = udp_socket(), up = udp_socket();
	if (!out) die(log);
	if (bind(in, (struct sockaddr *)&at, sizeof at) < 0) die("bind");
	if (connect(up, (struct sockaddr *)&to, sizeof to) < 0) die("connect");
	fputs("rtt-probe: listening\n", stderr);
	struct pollfd pfd[2] = { { in, POLLIN, 0 }, { up, POLLIN, 0 } };
	unsigned char msg[65536];
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR) continue;
			die("poll");
		}
		if (pfd[0].revents) {
			struct sockaddr_in from;
			socklen_t flen = sizeof from;
			ssize_t n = recvfrom(in, msg, sizeof msg, 0, (struct sockaddr *)&from, &flen);
			if (n >= 12 && n <= 512) {
				client[msg[0] << 8 | msg[1]] = from;
				fprintf(out, "%u ", ntohs(from.sin_port));
				for (ssize_t i = 0; i < n; i++) fprintf(out, "%02x", msg[i]);
				fputc('\n', out);
				fflush(out);
				send(up, msg, (size_t)n, 0);
			}
		}
		if (pfd[1].revents) {
			ssize_t n = recv(up, msg, sizeof msg, 0);
			if (n >= 2) {
				struct sockaddr_in *c = &client[msg[0] << 8 | msg[1]];
				sendto(in, msg, (size_t)n, 0, (struct sockaddr *)c, sizeof *c);
			}
		}
	}
}

static size_t read_log(const char *log, struct query **qs)
{
	FILE *f = fopen(log, "r");
	if (!f) die(log);
	size_t n = 0, cap = 0;
	char hex[1100];
	unsigned port;
	while (fscanf(f, "%u %1099s", &port, hex) == 2) {
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			*qs = realloc(*qs, cap * sizeof **qs);
			if (!*qs) die("realloc");
		}
		struct query *q = &(*qs)[n++];
		q->port = port;
		q->len = strlen(hex) / 2;
		if (q->len < 12 || q->len > sizeof q->msg) usage();
		for (size_t i = 0; i < q->len; i++) sscanf(hex + 2 * i, "%2hhx", &q->msg[i]);
	}
	fclose(f);
	return n;
}

/* A reply to each of `n` queries, by ID: reply[i], reply_len[i]. */
static unsigned char reply[2][65536];
static size_t reply_len[2];

static int read_replies(int fd, const struct query *q, size_t n)
{
	char got[2] = { 0, 0 };
	size_t left = n;
	while (left) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 1000) <= 0) return -1;
		ssize_t len = recv(fd, reply[n - left], sizeof reply[0], 0);
		if (len < 12) return -1;
		for (size_t i = 0; i < n; i++)
			if (!got[i] && !memcmp(reply[n - left], q[i].msg, 2)) {
				got[i] = 1;
				reply_len[n - left] = (size_t)len;
				left--;
				break;
			}
	}
	return 0;
}

/* The files glibc's getaddrinfo looks at on every lookup. */
static void read_files(void)
{
	struct stat st;
	char buf[4096];
	stat("/etc/resolv.conf", &st);
	stat("/etc/nsswitch.conf", &st);
	int fd = open("/etc/hosts", O_RDONLY | O_CLOEXEC);
	if (fd < 0) return;
	while (read(fd, buf, sizeof buf) > 0) {}
	close(fd);
}

/* A name's end: labels to a root label or a pointer. */
static size_t skip_name(const unsigned char *m, size_t len, size_t p)
{
	while (p < len && m[p] && m[p] < 0xc0) p += m[p] + 1u;
	return p < len && m[p] ? p + 2 : p + 1;
}

/* The addresses of the records of reply r, appended to to[*n]. */
static void addresses(size_t r, struct sockaddr_in6 *to, size_t *n)
{
	const unsigned char *m = reply[r];
	size_t len = reply_len[r], p = 12;
	unsigned records = (m[6] << 8 | m[7]) + (m[8] << 8 | m[9]) + (m[10] << 8 | m[11]);
	for (unsigned q = m[4] << 8 | m[5]; q-- && p < len;) p = skip_name(m, len, p) + 4;
	while (records-- && *n < 48) {
		p = skip_name(m, len, p);
		if (p + 10 > len) break;
		unsigned type = m[p] << 8 | m[p + 1], rdlen = m[p + 8] << 8 | m[p + 9];
		p += 10;
		if (p + rdlen > len) break;
		struct sockaddr_in6 *a = &to[*n];
		memset(a, 0, sizeof *a);
		if (type == 1 && rdlen == 4) {
			((struct sockaddr_in *)a)->sin_family = AF_INET;
			memcpy(&((struct sockaddr_in *)a)->sin_addr, m + p, 4);
			++*n;
		} else if (type == 28 && rdlen == 16) {
			a->sin6_family = AF_INET6;
			memcpy(&a->sin6_addr, m + p, 16);
			++*n;
		}
		p += rdlen;
	}
}

/* The sort's route probes to the addresses of replies 0..k-1, as glibc
 * makes them when there is more than one. */
static void probe_routes(size_t k)
{
	struct sockaddr_in6 to[48];
	size_t n = 0;
	for (size_t r = 0; r < k; r++) addresses(r, to, &n);
	if (n < 2) return;
	int fd = -1, af = 0;
	for (size_t i = 0; i < n; i++) {
		if (fd < 0 || (af == AF_INET && to[i].sin6_family == AF_INET6)) {
			if (fd >= 0) close(fd);
			af = to[i].sin6_family;
			fd = socket(af, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
		} else {
			struct sockaddr unspec = { .sa_family = AF_UNSPEC };
			connect(fd, &unspec, sizeof unspec);
		}
		struct sockaddr_in6 src;
		socklen_t slen = sizeof src;
		socklen_t tolen = to[i].sin6_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof to[i];
		if (connect(fd, (struct sockaddr *)&to[i], tolen) == 0)
			getsockname(fd, (struct sockaddr *)&src, &slen);
	}
	close(fd);
}

static void replay(char mode, const char *server, const char *log)
{
	struct sockaddr_in to = dns_addr(server);
	struct query *qs = NULL;
	size_t n = read_log(log, &qs);
	int kept = -1;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0, k; i < n; i += k) {
		for (k = 1; k < 2 && i + k < n && qs[i + k].port == qs[i].port; k++) {}
		if (mode == 'l') read_files();
		int fd = kept >= 0 ? kept : udp_socket();
		if (fd != kept && connect(fd, (struct sockaddr *)&to, sizeof to) < 0) die("connect");
		/* One system call for a pair, as glibc's send_dg sends it. */
		struct iovec iov[2];
		struct mmsghdr mm[2];
		memset(mm, 0, sizeof mm);
		for (size_t j = 0; j < k; j++) {
			iov[j] = (struct iovec){ qs[i + j].msg, qs[i + j].len };
			mm[j].msg_hdr.msg_iov = &iov[j];
			mm[j].msg_hdr.msg_iovlen = 1;
		}
		if (sendmmsg(fd, mm, (unsigned)k, 0) != (int)k) die("sendmmsg");
		if (read_replies(fd, qs + i, k) < 0) {
			fprintf(stderr, "rtt-probe: no reply to query %zu\n", i);
			exit(1);
		}
		if (mode == 'k')
			kept = fd;
		else
			close(fd);
		if (mode == 'l') probe_routes(k);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lld\n", ((long long)(t1.tv_sec - t0.tv_sec) * 1000000000 + t1.tv_nsec - t0.tv_nsec) / 1000);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "relay")) relay(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "replay")) replay(0, argv[2], argv[3]);
	else if (argc == 5 && !strcmp(argv[1], "replay") && (!strcmp(argv[2], "-k") || !strcmp(argv[2], "-l")))
		replay(argv[2][1], argv[3], argv[4]);
	else usage();
	return 0;
}
