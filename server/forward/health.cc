// SPDX-License-Identifier: Apache-2.0
#include "server/forward/health.h"

namespace rk8s::server {

bool Health::want_probe(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (probing_ || now < quiet_until_) return false;
  probing_ = true;
  return true;
}

Health::Change Health::probed(Probe outcome, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  quiet_until_ = now + std::chrono::milliseconds(kProbeMs);
  if (outcome == Probe::answered) {
    probing_ = false;
    fails_ = 0;
    return down_.exchange(false) ? Change::up : Change::none;
  }
  if (outcome == Probe::unsent || ++fails_ < kMaxFails) return Change::none;
  return down_.exchange(true) ? Change::none : Change::down;
}

Health::Change Health::answered() {
  // Every reply comes here: a read, and a write only when it was down.
  return down_.load(std::memory_order_relaxed) && down_.exchange(false) ? Change::up : Change::none;
}

}  // namespace rk8s::server
