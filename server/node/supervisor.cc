// SPDX-License-Identifier: Apache-2.0
#include "server/node/supervisor.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>

#include "server/node/setup.h"

namespace rk8s::server {
namespace {

constexpr unsigned kFirstDelay = 1, kLongestDelay = 16;  // seconds
constexpr time_t kLivedLong = 60;  // a child that ran this long starts the delays over

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

}  // namespace

int supervise(const NodeSetupConfig& setup, const std::vector<Endpoint>& listen,
              const std::function<int()>& serve) {
  struct sigaction sa = {};
  sa.sa_handler = pass_on;  // no SA_RESTART: waitpid and sleep return at once
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &sa, nullptr);
  for (unsigned delay = kFirstDelay;;) {
    time_t started = now();
    pid_t child = fork();
    if (child < 0) {
      say(std::string("fork: ") + strerror(errno));
      return 1;
    }
    if (child == 0) {
      for (int sig : {SIGTERM, SIGINT, SIGHUP}) signal(sig, SIG_DFL);
      _exit(serve());
    }
    child_pid = child;
    int status = 0;
    while (waitpid(child, &status, 0) < 0)
      if (errno != EINTR) return 1;
    child_pid = 0;
    // An orderly exit tore down what it set up.
    bool orderly = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (stopping || orderly) return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (now() - started >= kLivedLong) delay = kFirstDelay;
    bool removed = tear_down_after(setup, listen);
    std::string kept;
    for (const IpAddr& a : kept_addresses(setup, listen)) {
      char text[64];
      ip_to_text(a, text, sizeof text);
      kept += (kept.empty() ? " but for " : ", ") + std::string(text);
    }
    if (!kept.empty()) kept += ", kept to refuse queries at once";
    say("the server " + how_it_ended(status) + "; " +
        (removed ? "its interface and NOTRACK rules removed" + kept + ": the node's DNS goes to kube-dns"
                 : "another instance holds the node's setup") +
        "; starting it again in " + std::to_string(delay) + " s");
    for (unsigned left = delay; left > 0 && !stopping;) left = sleep(left);
    if (stopping) return 0;
    delay = std::min(delay * 2, kLongestDelay);
  }
}

}  // namespace rk8s::server
