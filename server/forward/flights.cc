// SPDX-License-Identifier: Apache-2.0
#include "server/forward/flights.h"

namespace rk8s::server {

const char* refusal_name(Refusal r) {
  static const char* const kNames[kRefusals] = {"", "maxConcurrent", "maxPending", "maxJoined", "share",
                                                "maxUpstreamPerQuery", "memory"};
  return kNames[size_t(r)];
}

Refusal Flights::admit(const ClientKey& client, bool first) const {
  if (waiting_ >= limits_.waiting) return Refusal::waiting;
  if (first && flights_.size() - refreshes_ >= limits_.questions) return Refusal::questions;
  auto it = clients_.find(client);
  size_t holders = clients_.size() + (it == clients_.end());
  Held held = it == clients_.end() ? Held{} : it->second;
  if (!within_share(limits_.waiting, waiting_, holders, held.waiting)) return Refusal::share;
  if (first && !within_share(limits_.questions, flights_.size() - refreshes_, holders, held.questions))
    return Refusal::share;
  return Refusal::none;
}

Refusal Flights::join(const std::string& key, const IpAddr* client, bool may_start, Loop* loop,
                      Resolved&& done, bool& start) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = flights_.find(key);
  start = it == flights_.end();
  if (!client) {  // a prefetch: nothing to join, only its own bound
    if (!start) return Refusal::joined;
    if (refreshes_ >= refresh_limit(limits_.questions)) return Refusal::questions;
    Flight& flight = flights_[key];
    flight.refresh = true;
    refreshes_++;
    flight.askers.push_back(Asker{loop, std::move(done), false, {}});
    return Refusal::none;
  }
  ClientKey who = ClientKey::of(*client);
  if (start && !may_start) return Refusal::budget;
  if (!start && it->second.askers.size() >= limits_.joined) return Refusal::joined;
  if (Refusal r = admit(who, start); r != Refusal::none) return r;
  Flight& flight = start ? flights_[key] : it->second;
  if (start) {
    flight.counted = true;
    flight.owner = who;
  }
  flight.askers.push_back(Asker{loop, std::move(done), true, who});
  Held& held = clients_[who];
  held.waiting++;
  held.questions += start;
  waiting_++;
  return Refusal::none;
}

void Flights::release(const ClientKey& client, bool waiting, bool question) {
  auto it = clients_.find(client);
  it->second.waiting -= waiting;
  it->second.questions -= question;
  if (!it->second.waiting && !it->second.questions) clients_.erase(it);
}

void Flights::land(const std::string& key, const Resolution& res) {
  Flight flight;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = flights_.find(key);
    if (it == flights_.end()) return;
    flight = std::move(it->second);
    flights_.erase(it);
    if (flight.counted) release(flight.owner, false, true);
    refreshes_ -= flight.refresh;
    for (const Asker& a : flight.askers)
      if (a.counted) {
        release(a.client, true, false);
        waiting_--;
      }
  }
  auto shared = std::make_shared<const Resolution>(res);
  for (Asker& a : flight.askers) a.loop->post([shared, done = std::move(a.done)] { done(shared.get()); });
}

Flights::Counts Flights::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Counts{flights_.size() - refreshes_, waiting_, clients_.size(), refreshes_};
}

}  // namespace rk8s::server
