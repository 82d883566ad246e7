// SPDX-License-Identifier: Apache-2.0
/* abandon jump|cancel|none gai|ghbn|ghbn_r|res LEFT NAME...: a lookup of LEFT
 * made with FUNC (getaddrinfo, gethostbyname, gethostbyname_r, res_search
 * for A) is left 100 ms in: by siglongjmp out of a SIGALRM handler (jump:
 * wget's --timeout, curl's synchronous resolver), or by pthread_cancel of
 * the thread that makes it (cancel). Then each NAME is looked up with
 * getaddrinfo, and LEFT once more with FUNC, each printed as "NAME
 * OUTCOME": the first address, or the error. "left" first when the lookup
 * was left before it ended, "ended" when it was not; none leaves no lookup
 * and prints "none" (what the lookups give unhurt). */
#define _GNU_SOURCE
#include <arpa/nameser.h>
#include <netdb.h>
#include <pthread.h>
#include <resolv.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "lookup-outcome.h"

static const char *func;

static void print_hostent(const struct hostent *h, int err)
{
	char text[64];
	if (!h || !h->h_addr_list[0]) printf("error h%d\n", err);
	else printf("%s\n", inet_ntop(h->h_addrtype, h->h_addr_list[0], text, sizeof text));
}

/* NAME looked up with FUNC, its outcome printed. */
static void look_up(const char *name)
{
	printf("%s ", name);
	if (!strcmp(func, "ghbn")) {
		struct hostent *h = gethostbyname(name);
		print_hostent(h, h_errno);
	} else if (!strcmp(func, "ghbn_r")) {
		struct hostent h, *result = 0;
		char buf[2048];
		int err = 0;
		gethostbyname_r(name, &h, buf, sizeof buf, &result, &err);
		print_hostent(result, err);
	} else if (!strcmp(func, "res")) {
		unsigned char answer[2048];
		int len = res_search(name, C_IN, T_A, answer, sizeof answer);
		if (len < 0) printf("error h%d\n", h_errno);
		else printf("answer rcode %d ancount %d\n", answer[3] & 15, answer[6] << 8 | answer[7]);
	} else {
		char got[64];
		outcome_of_lookup(name, got, sizeof got);
		printf("%s\n", got);
	}
	fflush(stdout);
}

static sigjmp_buf left_at;
static void leave(int sig) { (void)sig; siglongjmp(left_at, 1); }

static int left_by_jump(const char *name)
{
	struct sigaction sa = { .sa_handler = leave };
	sigaction(SIGALRM, &sa, 0);
	if (sigsetjmp(left_at, 1)) return 1;
	struct itimerval t = { .it_value = { 0, 100000 } };
	setitimer(ITIMER_REAL, &t, 0);
	look_up(name);
	struct itimerval off = { 0 };
	setitimer(ITIMER_REAL, &off, 0);
	return 0;
}

static void *lookup_thread(void *name)
{
	look_up(name);
	return 0;
}

static int left_by_cancel(const char *name)
{
	pthread_t t;
	void *ended = 0;
	if (pthread_create(&t, 0, lookup_thread, (void *)name)) return 0;
	usleep(100000);
	pthread_cancel(t);
	pthread_join(t, &ended);
	return ended == PTHREAD_CANCELED;
}

int main(int argc, char **argv)
{
	const char *how = argc < 4 ? "" : argv[1];
	if (strcmp(how, "jump") && strcmp(how, "cancel") && strcmp(how, "none")) {
		fputs("usage: abandon jump|cancel|none gai|ghbn|ghbn_r|res LEFT NAME...\n", stderr);
		return 2;
	}
	func = argv[2];
	if (!strcmp(how, "none")) printf("\nnone\n");
	else {
		int left = !strcmp(how, "jump") ? left_by_jump(argv[3]) : left_by_cancel(argv[3]);
		/* What the left lookup printed of its name, to the end of that line. */
		printf("\n%s\n", left ? "left" : "ended");
	}
	const char *lookup = func;
	func = "gai";
	for (int i = 4; i < argc; i++) look_up(argv[i]);
	func = lookup;
	look_up(argv[3]);
	return 0;
}
