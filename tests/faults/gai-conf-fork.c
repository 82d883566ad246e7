// SPDX-License-Identifier: Apache-2.0
/* gai-conf-fork NAME: forks while a thread reads /etc/gai.conf, which must
 * be a FIFO (a pod sandbox mounts one there). A thread looks NAME up
 * (AF_UNSPEC: several answers are sorted, which reads gai.conf, and opening
 * the FIFO waits for a writer); once the thread waits in that open, the
 * process forks. The child looks NAME up under alarm(10): a child stuck on
 * a lock the thread held at the fork dies of SIGALRM. The parent writes a
 * gai.conf into the FIFO every 20 ms until the child is gone, then joins the
 * thread. Prints "child OUTCOME", "child exit N" or "child signal N", then
 * "thread OUTCOME": OUTCOME is the first address or "error N". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lookup-outcome.h"

#define GAI_CONF "/etc/gai.conf"

static const char *name;
static char thread_outcome[64];
static pid_t thread_tid;

static void *looker(void *arg)
{
	(void)arg;
	__atomic_store_n(&thread_tid, gettid(), __ATOMIC_RELEASE);
	outcome_of_lookup(name, thread_outcome, sizeof thread_outcome);
	return 0;
}

/* Whether thread TID waits in openat(GAI_CONF): /proc's view of its system
 * call gives the path's address, in this process. */
static int waits_in_open(pid_t tid)
{
	char file[64];
	snprintf(file, sizeof file, "/proc/self/task/%d/syscall", (int)tid);
	FILE *f = fopen(file, "r");
	if (!f) return 0;
	long nr = -1;
	unsigned long dirfd, at;
	int got = fscanf(f, "%ld %lx %lx", &nr, &dirfd, &at);
	fclose(f);
	return got == 3 && nr == SYS_openat && !strcmp((const char *)at, GAI_CONF);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: gai-conf-fork NAME\n", stderr);
		return 2;
	}
	name = argv[1];
	struct stat st;
	if (stat(GAI_CONF, &st) || !S_ISFIFO(st.st_mode)) {
		fputs("gai-conf-fork: " GAI_CONF " is not a FIFO\n", stderr);
		return 2;
	}

	pthread_t thread;
	if (pthread_create(&thread, 0, looker, 0)) {
		perror("pthread_create");
		return 1;
	}
	pid_t tid;
	while (!(tid = __atomic_load_n(&thread_tid, __ATOMIC_ACQUIRE))) usleep(1000);
	for (int waited = 0; !waits_in_open(tid); usleep(10000))
		if (++waited == 1000) {
			fputs("gai-conf-fork: the thread never waited in opening " GAI_CONF "\n", stderr);
			return 1;
		}

	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		alarm(10);
		char got[64];
		outcome_of_lookup(name, got, sizeof got);
		printf("child %s\n", got);
		fflush(stdout);
		_exit(strncmp(got, "error", 5) ? 0 : 1);
	}

	/* glibc's default order still: whichever reader gets these bytes and
	 * whichever sees only the end of the file, the answer is the same. */
	static const char conf[] = "reload no\n";
	signal(SIGPIPE, SIG_IGN);  /* a reader may close between open and write */
	int status;
	while (waitpid(pid, &status, WNOHANG) != pid) {
		int fd = open(GAI_CONF, O_WRONLY | O_NONBLOCK);
		if (fd >= 0) {
			if (write(fd, conf, sizeof conf - 1) < 0 && errno != EPIPE) perror("write");
			close(fd);
		} else if (errno != ENXIO) {  /* ENXIO: nobody reads now */
			perror(GAI_CONF);
			return 1;
		}
		usleep(20000);
	}
	if (WIFEXITED(status))
		printf("child exit %d\n", WEXITSTATUS(status));
	else
		printf("child signal %d\n", WTERMSIG(status));
	pthread_join(thread, 0);
	printf("thread %s\n", thread_outcome);
	return 0;
}
