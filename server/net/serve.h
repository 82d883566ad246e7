// SPDX-License-Identifier: Apache-2.0
// What the listeners hand a query to, and how its answer comes back.
#pragma once

#include <sys/socket.h>

#include <functional>
#include <vector>

#include "libresolv-k8s/util/base.h"

namespace rk8s::server {

struct Client {
  sockaddr_storage addr;
  bool tcp;
  // The worker whose loop received it (Workers' index): the counters it
  // adds to, its own, so that no two workers write one cache line.
  size_t worker = 0;
  // What ServeAtOnce leaves for the Serve called next for the same query
  // (the packet cache: the uses of its reply it answered meanwhile).
  uint32_t passed = 0;
};

// Called once on the loop that received the query; an empty reply sends
// nothing.
using Answer = std::function<void(std::vector<uint8_t>& reply)>;
using Serve = std::function<void(Bytes query, const Client& client, Answer answer)>;
// A reply ready before any work (the packet cache), written to `reply`
// (left empty: nothing is sent); false sends the query to Serve, with
// `client` as it left it. UDP listeners ask it first.
using ServeAtOnce = std::function<bool(Bytes query, Client& client, std::vector<uint8_t>& reply)>;

}  // namespace rk8s::server
