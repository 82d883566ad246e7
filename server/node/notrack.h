// SPDX-License-Identifier: Apache-2.0
// NOTRACK for DNS to and from the node's addresses, UDP and TCP port 53 in
// both directions and the node's own queries to them (NodeLocal DNSCache's
// raw-table rules), so pods' queries skip conntrack and its races, and
// kube-proxy's DNAT of a ClusterIP the cache holds. nftables only: a table of our own, "inet
// resolv_k8s", at the raw priority; it applies beside kube-proxy's rules
// whether those are nftables or iptables (legacy or nft).
#pragma once

#include <string>
#include <vector>

#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

// What ensure() hands nft: the table, its prerouting and output chains at
// the raw priority, and for each address three rules per protocol: queries
// in, replies out, the node's own queries out.
std::string notrack_table_commands(const std::vector<IpAddr>& addresses);

class NotrackRules {
 public:
  explicit NotrackRules(std::vector<IpAddr> addresses) : addresses_(std::move(addresses)) {}

  // Puts the table back when it is missing. Throws std::runtime_error with
  // nft's message.
  void ensure() const;
  // The table as it should be, whatever was there (what an earlier
  // instance kept at exit: node/setup.h), in one transaction.
  void install() const;
  void remove() const;

 private:
  std::vector<IpAddr> addresses_;
};

}  // namespace rk8s::server
