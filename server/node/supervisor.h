// SPDX-License-Identifier: Apache-2.0
// A node that never goes dark, and a server that holds no privilege: with
// nodeSetup, the server runs as the child of a small supervisor, the only
// process that keeps CAP_NET_ADMIN. The supervisor holds the node's
// set-up (its interface and NOTRACK rules), puts it in place once the
// child says it listens (not before: an address of the node that nothing
// listens on refuses what kube-dns would answer), checks it every
// checkInterval and puts back what went missing. When the child dies without its orderly
// exit (SIGKILL, the OOM killer, a crash), the supervisor tears the set-up
// down at once (unless another instance holds the lock), so pods reach
// kube-dns through kube-proxy within the second; then, asking no one (the
// server comes back whatever an answer says), it starts the server
// again, 1 s later, doubling to 16 s while it keeps dying young, and puts
// the set-up back once it listens. SIGTERM, SIGINT and SIGHUP go on to the child; after its orderly
// exit the supervisor tears down and ends with the child's status.
#pragma once

#include <functional>
#include <string>

namespace rk8s::server {

struct Supervised {
  // In each child: its exit status. Closes `listening` once its sockets
  // are bound (or by ending).
  std::function<int(int listening)> serve;
  // Puts the set-up back (each child's once it listens); false when it
  // could not, said. At the first start that ends it all.
  std::function<bool()> check;
  // Removes the set-up; false: another instance holds it. `last`: the
  // supervisor ends after it; else a server starts again.
  std::function<bool(bool last)> tear_down;
  unsigned check_seconds = 60;
  std::string kept;                 // what tear_down leaves, for the log: "169.254.53.10"
};

int supervise(const Supervised& s);

}  // namespace rk8s::server
