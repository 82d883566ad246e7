// SPDX-License-Identifier: Apache-2.0
// Forwarding loops, found as CoreDNS's loop plugin finds them: when a
// configuration starts serving, a query for a random name under each
// forwarder's first zone (HINFO, "<random>.<random>.<zone>") goes to our own
// listener, which forwards it like any other. Seen a second time, it came
// back through the upstreams: they forward to us. That forwarder then
// forwards nothing (SERVFAIL) until a reload finds no loop, and the log
// says so once. A probe that gets SERVFAIL (an upstream not up yet) is
// sent again every second for 30 s, until one answers.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "server/forward/forwarder.h"
#include "server/model/warn.h"
#include "server/settings/address.h"

namespace rk8s::server {

class LoopGuard {
 public:
  explicit LoopGuard(Warn warn) : warn_(std::move(warn)) {}
  // A probe for `forwarder`, under `zone`.
  void add(const Name& zone, Forwarder& forwarder);
  // Every query's name, from any thread, while the forwarders live.
  void arrived(const Name& qname);
  // Sends the probes to our own listener at `listen` (an unspecified
  // address stands for loopback), from a thread of their own.
  void send(const Endpoint& listen) const;

 private:
  struct Probe {
    Name name;
    Forwarder* forwarder;
    std::atomic<int> arrivals{0};
    std::atomic<bool> looped{false};
  };
  std::vector<std::shared_ptr<Probe>> probes_;
  Warn warn_;
};

}  // namespace rk8s::server
