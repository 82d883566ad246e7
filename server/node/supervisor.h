// SPDX-License-Identifier: Apache-2.0
// A node that never goes dark, and a server that holds no privilege: with
// nodeSetup, the server runs as the child of a small supervisor, the only
// process that keeps CAP_NET_ADMIN. The supervisor holds the node's
// set-up (its interface and NOTRACK rules), checks it every checkInterval
// and puts back what went missing. When the child dies without its orderly
// exit (SIGKILL, the OOM killer, a crash), the supervisor tears the set-up
// down at once (unless another instance holds the lock), so pods reach
// kube-dns through kube-proxy within the second; then it puts it back and
// starts the server again, 1 s later, doubling to 16 s while it keeps dying
// young. SIGTERM, SIGINT and SIGHUP go on to the child; after its orderly
// exit the supervisor tears down and ends with the child's status.
#pragma once

#include <functional>
#include <string>

namespace rk8s::server {

struct Supervised {
  std::function<int()> serve;       // in each child: its exit status
  std::function<void()> check;      // put the set-up back (before each start too)
  std::function<bool()> tear_down;  // false: another instance holds the set-up
  unsigned check_seconds = 60;
  std::string kept;                 // what tear_down leaves, for the log: "169.254.53.10"
};

int supervise(const Supervised& s);

}  // namespace rk8s::server
