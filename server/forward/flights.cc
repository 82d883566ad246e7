// SPDX-License-Identifier: Apache-2.0
#include "server/forward/flights.h"

namespace rk8s::server {

bool Flights::join(const std::string& key, Loop* loop, Resolved done) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, first] = waiting_.try_emplace(key);
  it->second.push_back(Asker{loop, std::move(done)});
  return first;
}

void Flights::land(const std::string& key, const Resolution& res) {
  std::vector<Asker> askers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = waiting_.find(key);
    if (it == waiting_.end()) return;
    askers.swap(it->second);
    waiting_.erase(it);
  }
  for (Asker& a : askers) a.loop->post([res, done = std::move(a.done)] { done(&res); });
}

size_t Flights::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_.size();
}

}  // namespace rk8s::server
