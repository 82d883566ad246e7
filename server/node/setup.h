// SPDX-License-Identifier: Apache-2.0
// The node's network as NodeLocal DNSCache sets it up (the config's
// `nodeSetup`): the listen addresses on an interface of their own and
// NOTRACK rules for them, put in place once the server listens (its sockets
// bound before, IP_FREEBIND: until then kube-dns's address stays kube-dns's,
// not a local address nothing listens on), checked again every
// checkInterval and put back, and removed when the server ends so that pods
// fall back to kube-dns. Not while another instance runs (a
// rolling restart): each holds a shared lock on one file, and only the last
// to go tears down. Held by the supervisor (supervisor.h). With
// keepLinkLocal the link-local addresses stay, with their rules: a query
// sent there while no instance listens is refused at once (ICMP port
// unreachable), not lost, and the pod's resolver moves on to its next
// nameserver without waiting out its timeout.
#pragma once

#include <functional>
#include <vector>

#include "server/node/interface.h"
#include "server/node/node_settings.h"
#include "server/node/notrack.h"
#include "server/settings/address.h"

namespace rk8s::server {

class NodeSetup {
 public:
  // Takes the lock; throws std::runtime_error when it cannot be had. Sets
  // nothing up: check() does.
  NodeSetup(const NodeSetupConfig& config, const std::vector<Endpoint>& listen);
  ~NodeSetup();
  NodeSetup(const NodeSetup&) = delete;
  NodeSetup& operator=(const NodeSetup&) = delete;

  // Puts back what went missing (at first: all of it); throws
  // std::runtime_error when the interface or the rules cannot be had.
  void check();
  // Removes interface and rules when no other instance holds the lock, but
  // for the link-local addresses with keepLinkLocal, left with their rules
  // while `wanted` (asked then, when given) says the cache is to come back:
  // not when its DaemonSet is gone (node/owner.h). False when another
  // instance holds the lock. check() puts them back.
  bool teardown(const std::function<bool()>& wanted = nullptr);
  // What teardown leaves: "169.254.53.10", "" for nothing.
  std::string kept() const;

 private:
  LocalInterface interface_;
  NotrackRules rules_;
  std::vector<IpAddr> kept_, dropped_;  // at teardown, with keepLinkLocal
  NotrackRules kept_rules_;
  int lock_fd_;
  // The table may hold the kept addresses' rules alone: an earlier
  // instance's at first, this one's after teardown.
  bool rules_kept_ = true;
};

// The addresses the setup holds: the listen addresses but the wildcards.
std::vector<IpAddr> listen_addresses(const std::vector<Endpoint>& listen);

}  // namespace rk8s::server
