// SPDX-License-Identifier: Apache-2.0
// Bounds shared out by client address: while n addresses hold some of a
// bound, none may hold more than 1/(n+1) of it, so that one more always
// finds room and a client that floods leaves room for every other. The
// forwarder's flights share their bounds so (forward/flights.h), and the
// TCP and HTTP listeners their connections (ClientSlots).
//
// An address is its IPv6 form, an IPv4 one mapped (::ffff:a.b.c.d), so a
// client is one whether it came to an IPv4 socket or a dual-stack one. A
// pod's IPv4 and IPv6 addresses are two clients: nothing in a packet ties
// them together (server/README.md, "Bounds").
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

struct ClientKey {
  uint8_t addr[16] = {};
  bool operator==(const ClientKey&) const = default;
  static ClientKey of(const IpAddr& a);
  static ClientKey of(const sockaddr* a);
};

struct ClientKeyHash {
  size_t operator()(const ClientKey& k) const;
};

// A client's share of `bound` while `holders` clients (itself among them)
// hold some: 1/(holders + 1), and 1 at least.
size_t client_share(size_t bound, size_t holders);

// Whether a client that holds `mine` of the `held` slots of `bound` may take
// one more: while under its share, and, when it holds some already, not
// from the last share's worth, kept for a client that holds none. Shares
// alone fall as holders come but what was taken stays: clients that came
// one by one, each taking its share of the time, filled the bound (1/2 +
// 1/3 + ... passes 1 at the fourth) and the next client found none.
bool within_share(size_t bound, size_t held, size_t holders, size_t mine);

// Slots (connections) held by client address, shared by every thread: at
// most `bound` in all, and for each address the least of `per_client` and
// its share of `bound`.
class ClientSlots {
 public:
  enum class Refusal : uint8_t { none, bound, share };

  Refusal take(const ClientKey& client, size_t bound, size_t per_client);
  void give(const ClientKey& client);

  size_t held() const;
  size_t most() const;  // the most one address holds

 private:
  mutable std::mutex mutex_;
  std::unordered_map<ClientKey, size_t, ClientKeyHash> clients_;
  size_t held_ = 0;
};

}  // namespace rk8s::server
