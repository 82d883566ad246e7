// SPDX-License-Identifier: Apache-2.0
#include "server/forward/held_bytes.h"

#include <utility>

namespace rk8s::server {

HeldBytes::Charge& HeldBytes::Charge::operator=(Charge&& o) noexcept {
  if (this != &o) {
    release();
    held_ = std::exchange(o.held_, nullptr);
    client_ = o.client_;
    bytes_ = o.bytes_;
  }
  return *this;
}

void HeldBytes::Charge::release() {
  if (held_) std::exchange(held_, nullptr)->give_back(client_, bytes_);
}

HeldBytes::Charge HeldBytes::charge(const ClientKey& client, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t used = used_.load(std::memory_order_relaxed);
  if (used + bytes > budget_) return {};
  auto it = clients_.find(client);
  size_t holders = clients_.size() + (it == clients_.end());
  size_t mine = it == clients_.end() ? 0 : it->second;
  if (mine + bytes > client_share(budget_, holders) || !within_share(budget_, used, holders, mine)) return {};
  clients_[client] = mine + bytes;
  used_.store(used + bytes, std::memory_order_relaxed);
  if (used + bytes > peak_.load(std::memory_order_relaxed)) peak_.store(used + bytes, std::memory_order_relaxed);
  Charge c;
  c.held_ = this;
  c.client_ = client;
  c.bytes_ = bytes;
  return c;
}

void HeldBytes::give_back(const ClientKey& client, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = clients_.find(client);
  if ((it->second -= bytes) == 0) clients_.erase(it);
  used_.store(used_.load(std::memory_order_relaxed) - bytes, std::memory_order_relaxed);
}

}  // namespace rk8s::server
