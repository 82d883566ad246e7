// SPDX-License-Identifier: Apache-2.0
#include "server/node/supervisor.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

namespace rk8s::server {
namespace {

constexpr unsigned kFirstDelay = 1, kLongestDelay = 16;  // seconds
constexpr time_t kLivedLong = 60;  // a child that ran this long starts the delays over

constexpr int kPassedOn[] = {SIGTERM, SIGINT, SIGHUP};

volatile sig_atomic_t child_pid = 0;
volatile sig_atomic_t stopping = 0;

void pass_on(int sig) {
  if (sig != SIGHUP) stopping = 1;
  if (child_pid > 0) kill(child_pid, sig);
}

void say(const std::string& what) { fprintf(stderr, "resolv-k8s-server: supervisor: %s\n", what.c_str()); }

std::string how_it_ended(int status) {
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

time_t now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec;
}

// Until the child closes its end of `fd`: it listens, or it ended.
void wait_listening(int fd) {
  char byte;
  while (read(fd, &byte, 1) < 0 && errno == EINTR) {
  }
  close(fd);
}

// Waits for `child` to end, checking the set-up every check_seconds.
int wait_checking(pid_t child, const Supervised& s) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  for (;;) {
    int status = 0;
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return status;
    if (done < 0 && errno != EINTR) return -1;
    timespec wait{time_t(s.check_seconds), 0};
    if (sigtimedwait(&chld, nullptr, &wait) < 0 && errno == EAGAIN) s.check();
  }
}

}  // namespace

int supervise(const Supervised& s) {
  stopping = 0;  // from an earlier run in this process (the tests')
  struct sigaction sa = {};
  sa.sa_handler = pass_on;  // no SA_RESTART: waits return at once
  sigset_t passed, chld, before;
  sigemptyset(&passed);
  for (int sig : kPassedOn) {
    sigaction(sig, &sa, nullptr);
    sigaddset(&passed, sig);
  }
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &before);  // taken by sigtimedwait
  for (unsigned delay = kFirstDelay, starts = 0;; starts++) {
    time_t started = now();
    // What is to be passed on waits from here until child_pid names the
    // child: after fork, pass_on would find none. What came before: no child.
    sigprocmask(SIG_BLOCK, &passed, nullptr);
    if (stopping) {
      if (starts > 0) s.tear_down(true);  // stopped while waiting to start again
      sigprocmask(SIG_SETMASK, &before, nullptr);
      return 0;
    }
    int listening[2];
    pid_t child = pipe2(listening, O_CLOEXEC) == 0 ? fork() : -1;
    if (child < 0) {
      say(std::string("starting the server: ") + strerror(errno));
      sigprocmask(SIG_SETMASK, &before, nullptr);
      return 1;
    }
    if (child == 0) {
      // The defaults before the mask opens: what the supervisor passed on
      // meanwhile is the child's, not its copy of pass_on's.
      for (int sig : kPassedOn) signal(sig, SIG_DFL);
      sigprocmask(SIG_SETMASK, &before, nullptr);
      close(listening[0]);
      _exit(s.serve(listening[1]));
    }
    child_pid = child;
    sigprocmask(SIG_UNBLOCK, &passed, nullptr);
    close(listening[1]);
    wait_listening(listening[0]);
    if (!stopping && !s.check() && starts == 0) {
      kill(child, SIGTERM);
      waitpid(child, nullptr, 0);
      s.tear_down(true);
      sigprocmask(SIG_SETMASK, &before, nullptr);
      return 1;
    }
    int status = wait_checking(child, s);
    child_pid = 0;
    // An orderly exit: the server drained what it had.
    bool orderly = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    bool last = stopping || orderly || status == -1;
    bool removed = s.tear_down(last);
    if (last) {
      sigprocmask(SIG_SETMASK, &before, nullptr);
      return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    if (now() - started >= kLivedLong) delay = kFirstDelay;
    std::string kept = s.kept.empty() ? "" : " but for " + s.kept + ", kept to refuse queries at once";
    say("the server " + how_it_ended(status) + "; " +
        (removed ? "its interface and NOTRACK rules removed" + kept + ": the node's DNS goes to kube-dns"
                 : "another instance holds the node's setup") +
        "; starting it again in " + std::to_string(delay) + " s");
    for (unsigned left = delay; left > 0 && !stopping;) left = sleep(left);
    delay = std::min(delay * 2, kLongestDelay);
  }
}

}  // namespace rk8s::server
