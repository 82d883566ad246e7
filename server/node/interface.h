// SPDX-License-Identifier: Apache-2.0
// The node's listen addresses on an interface of their own, as NodeLocal
// DNSCache brings up "nodelocaldns": a dummy interface, or an empty bridge
// where the kernel has no dummy driver (either only holds local addresses).
#pragma once

#include <string>
#include <vector>

#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

class LocalInterface {
 public:
  LocalInterface(std::string name, std::vector<IpAddr> addresses)
      : name_(std::move(name)), addresses_(std::move(addresses)) {}

  // Creates what is missing: the interface, up, with every address. Throws
  // std::runtime_error naming what failed.
  void ensure() const;
  // Deletes the interface, and its addresses with it.
  void remove() const;
  // Takes `addresses` off the interface, the others left as they are.
  void drop(const std::vector<IpAddr>& addresses) const;

 private:
  std::string name_;
  std::vector<IpAddr> addresses_;
};

}  // namespace rk8s::server
