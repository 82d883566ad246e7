// SPDX-License-Identifier: Apache-2.0
#include "server/net/client_share.h"

#include <algorithm>
#include <string_view>

namespace rk8s::server {

ClientKey ClientKey::of(const IpAddr& a) {
  ClientKey k;
  ip_as_v6(a, k.addr);
  return k;
}

ClientKey ClientKey::of(const sockaddr* a) { return of(ip_from_sockaddr(a)); }

size_t ClientKeyHash::operator()(const ClientKey& k) const {
  return std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(k.addr), sizeof k.addr));
}

size_t client_share(size_t bound, size_t holders) { return std::max<size_t>(1, bound / (holders + 1)); }

bool within_share(size_t bound, size_t held, size_t holders, size_t mine) {
  size_t share = client_share(bound, holders);
  return mine < share && (mine == 0 || held + share < bound);
}

ClientSlots::Refusal ClientSlots::take(const ClientKey& client, size_t bound, size_t per_client) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (held_ >= bound) return Refusal::bound;
  auto it = clients_.find(client);
  size_t holders = clients_.size() + (it == clients_.end());
  size_t mine = it == clients_.end() ? 0 : it->second;
  if (mine >= per_client || !within_share(bound, held_, holders, mine)) return Refusal::share;
  clients_[client]++;
  held_++;
  return Refusal::none;
}

void ClientSlots::give(const ClientKey& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = clients_.find(client);
  held_--;
  if (!--it->second) clients_.erase(it);
}

size_t ClientSlots::held() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_;
}

size_t ClientSlots::most() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t most = 0;
  for (const auto& [client, n] : clients_) most = std::max(most, n);
  return most;
}

}  // namespace rk8s::server
