// SPDX-License-Identifier: Apache-2.0
// The node's network as NodeLocal DNSCache sets it up (the config's
// `nodeSetup`): the listen addresses on an interface of their own and
// NOTRACK rules for them, in place before anything listens, checked again
// every checkInterval and put back, and removed at exit so that pods fall
// back to kube-dns. Not while another instance runs (a rolling restart):
// each holds a shared lock on one file, and only the last to go tears down.
// With keepLinkLocal the link-local addresses stay, with their rules: a
// query sent there while no instance listens is refused at once (ICMP port
// unreachable), not lost, and the pod's resolver moves on to its next
// nameserver without waiting out its timeout.
#pragma once

#include <vector>

#include "server/config/config.h"
#include "server/node/interface.h"
#include "server/node/notrack.h"

namespace rk8s::server {

class NodeSetup {
 public:
  // Throws std::runtime_error when the interface, the rules or the lock
  // cannot be had.
  NodeSetup(const NodeSetupConfig& config, const std::vector<Endpoint>& listen);
  ~NodeSetup();
  NodeSetup(const NodeSetup&) = delete;
  NodeSetup& operator=(const NodeSetup&) = delete;

  // Puts back what went missing; throws as the constructor does.
  void check() const;
  // At exit: removes interface and rules when no other instance holds the lock.
  void teardown();

 private:
  NodeSetupConfig config_;
  std::vector<Endpoint> listen_;
  LocalInterface interface_;
  NotrackRules rules_;
  int lock_fd_;
};

// The addresses the setup holds: the listen addresses but the wildcards.
std::vector<IpAddr> listen_addresses(const std::vector<Endpoint>& listen);

// The link-local listen addresses, kept at exit with keepLinkLocal.
std::vector<IpAddr> kept_addresses(const NodeSetupConfig& config, const std::vector<Endpoint>& listen);

// The teardown: the interface and rules removed, the kept addresses put back.
void tear_down(const NodeSetupConfig& config, const std::vector<Endpoint>& listen);

// What an instance that died without its orderly exit left on the node,
// removed as that exit would have: when no other instance holds the lock.
// True when it was removed.
bool tear_down_after(const NodeSetupConfig& config, const std::vector<Endpoint>& listen);

}  // namespace rk8s::server
