// SPDX-License-Identifier: Apache-2.0
#include "server/forward/upstreams.h"

#include <random>

#include "server/forward/exchange.h"
#include "server/forward/query.h"
#include "server/forward/metrics.h"

namespace rk8s::server {
namespace {

unsigned random_below(size_t n) {
  static thread_local std::minstd_rand rng{std::random_device{}()};
  return unsigned(rng() % n);
}

}  // namespace

Upstreams::Upstreams(const ForwardConfig& config, ForwardMetrics& metrics, Warn warn)
    : policy_(config.policy), tcp_only_(config.tcp_only), metrics_(metrics), warn_(std::move(warn)) {
  for (const Upstream& u : config.upstreams) {
    states_.push_back(std::make_unique<State>());
    states_.back()->where = u;
  }
}

std::vector<size_t> Upstreams::order() {
  size_t n = states_.size();
  size_t first = policy_ == Policy::round_robin ? next_++ % n
                 : policy_ == Policy::random    ? random_below(n)
                                                : 0;
  std::vector<size_t> out;
  for (size_t k = 0; k < n; k++)
    if (!states_[(first + k) % n]->down) out.push_back((first + k) % n);
  if (out.empty()) out.push_back(random_below(n));
  return out;
}

bool Upstreams::any_healthy() const {
  for (const auto& s : states_)
    if (!s->down) return true;
  return false;
}

void Upstreams::succeeded(size_t i) {
  states_[i]->fails = 0;
  if (states_[i]->down.exchange(false)) warn_("upstream " + states_[i]->where.text + " answers again");
}

void Upstreams::failed(size_t i, Loop& loop) {
  State& s = *states_[i];
  if (++s.fails < kMaxFails || s.down.exchange(true)) return;
  bool all = !any_healthy();
  warn_("upstream " + s.where.text + " down after " + std::to_string(kMaxFails) +
        " failures in a row, asked again every " + std::to_string(kProbeMs) + " ms" +
        (all ? "; every upstream of its zones is down" : ""));
  if (all) metrics_.all_down();
  if (!s.probing.exchange(true)) probe(i, loop);
}

void Upstreams::probe(size_t i, Loop& loop) {
  auto self = shared_from_this();
  loop.after(kProbeMs, [self, i, &loop] {
    State& s = *self->states_[i];
    if (!s.down) {
      s.probing = false;
      return;
    }
    auto done = [self, i, &loop](ExchangeResult& r) {
      State& st = *self->states_[i];
      if (r.status == ExchangeResult::ok) {
        self->succeeded(i);
        st.probing = false;
        return;
      }
      self->metrics_.health_check_failed(st.where.text);
      self->probe(i, loop);
    };
    exchange(loop, s.where, self->tcp_only_, probe_query(), kProbeMs, done);
  });
}

}  // namespace rk8s::server
