// SPDX-License-Identifier: Apache-2.0
/* lookup-storm [-t THREADS] [-n LOOKUPS] [-k] [-e] [-i] [-m] NAME: THREADS
 * threads (1) each look NAME up LOOKUPS times (100), AF_UNSPEC. -m: print the
 * VmRSS and VmHWM lines of /proc/self/status at the end. With -e, every free
 * file descriptor is taken first (opened on /dev/null until EMFILE). With -i,
 * every thread gets a SIGUSR1 (handled, without SA_RESTART) every 500 us, so
 * the libc's waits return EINTR. With -k, thread 0 forks half-way
 * through; the child looks NAME up 20 times on its own and must see what the
 * parent saw first (bounded by alarm: a deadlocked child counts as failed).
 * Prints "COUNT OUTCOME" per distinct outcome, sorted by first appearance:
 * OUTCOME is the first address of the result or the EAI_ number, and
 * "child-ok" or "child-failed". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lookup-outcome.h"

#define MAX_OUTCOMES 16

static const char *name;
static int lookups = 100, fork_midway;
static int finished;  /* threads done looking up */
static volatile long interrupts;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char outcomes[MAX_OUTCOMES][64];
static int counts[MAX_OUTCOMES], n_outcomes;

static void record(const char *outcome)
{
	pthread_mutex_lock(&lock);
	int i = 0;
	while (i < n_outcomes && strcmp(outcomes[i], outcome)) i++;
	if (i == n_outcomes && n_outcomes < MAX_OUTCOMES)
		snprintf(outcomes[n_outcomes++], sizeof outcomes[0], "%s", outcome);
	if (i < n_outcomes) counts[i]++;
	pthread_mutex_unlock(&lock);
}

/* In the child: 20 lookups, each the parent's first outcome. */
static int child(const char *expected)
{
	alarm(20);
	for (int i = 0; i < 20; i++) {
		char got[64];
		outcome_of_lookup(name, got, sizeof got);
		if (strcmp(got, expected)) return 1;
	}
	return 0;
}

static void *run(void *arg)
{
	char got[64];
	for (int i = 0; i < lookups; i++) {
		outcome_of_lookup(name, got, sizeof got);
		record(got);
		if (arg && fork_midway && i == lookups / 2) {
			char expected[64];
			pthread_mutex_lock(&lock);
			snprintf(expected, sizeof expected, "%s", outcomes[0]);
			pthread_mutex_unlock(&lock);
			pid_t pid = fork();
			if (pid == 0) _exit(child(expected));
			int status = -1;
			if (pid > 0) waitpid(pid, &status, 0);
			record(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0
				? "child-ok" : "child-failed");
		}
	}
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return 0;
}

static void on_usr1(int sig) { (void)sig; interrupts++; }

static pthread_t tid[256];
static int threads = 1;

static void *interrupter(void *arg)
{
	(void)arg;
	/* The workers are joined only after this returns: their IDs stay valid. */
	while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < threads) {
		for (int i = 0; i < threads; i++) pthread_kill(tid[i], SIGUSR1);
		usleep(500);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int exhaust = 0, interrupt = 0, memory = 0, c;
	while ((c = getopt(argc, argv, "t:n:keim")) != -1) {
		switch (c) {
		case 't': threads = atoi(optarg); break;
		case 'n': lookups = atoi(optarg); break;
		case 'k': fork_midway = 1; break;
		case 'e': exhaust = 1; break;
		case 'i': interrupt = 1; break;
		case 'm': memory = 1; break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc || threads < 1 || threads > 256 || lookups < 1) goto usage;
	name = argv[optind];
	while (exhaust && open("/dev/null", O_RDONLY) >= 0) {}

	struct sigaction sa = { .sa_handler = on_usr1 };  /* no SA_RESTART */
	if (interrupt) sigaction(SIGUSR1, &sa, 0);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&tid[i], 0, run, i == 0 ? (void *)1 : 0)) {
			perror("pthread_create");
			return 1;
		}
	pthread_t signaller;
	if (interrupt && pthread_create(&signaller, 0, interrupter, 0)) {
		perror("pthread_create");
		return 1;
	}
	if (interrupt) {
		pthread_join(signaller, 0);
		if (!interrupts) fputs("lookup-storm: no interrupt delivered\n", stderr);
	}
	for (int i = 0; i < threads; i++) pthread_join(tid[i], 0);
	for (int i = 0; i < n_outcomes; i++) printf("%d %s\n", counts[i], outcomes[i]);
	char line[256];
	FILE *status = memory ? fopen("/proc/self/status", "r") : 0;
	while (status && fgets(line, sizeof line, status))
		if (!strncmp(line, "VmRSS:", 6) || !strncmp(line, "VmHWM:", 6)) fputs(line, stdout);
	return 0;
usage:
	fputs("usage: lookup-storm [-t THREADS] [-n LOOKUPS] [-k] [-e] [-i] [-m] NAME\n", stderr);
	return 2;
}
