// SPDX-License-Identifier: Apache-2.0
#include "server/forward/upstreams.h"

#include <random>

#include "server/forward/exchange.h"
#include "server/forward/query.h"
#include "server/forward/metrics.h"

namespace rk8s::server {
namespace {

// Per thread, so that no lock is taken: a generator's state is no one's.
unsigned random_below(size_t n) {
  static thread_local std::minstd_rand rng{std::random_device{}()};
  return unsigned(rng() % n);
}

Health::Probe outcome_of(const ExchangeResult& r) {
  return r.status == ExchangeResult::ok          ? Health::Probe::answered
         : r.status == ExchangeResult::no_socket ? Health::Probe::unsent
                                                 : Health::Probe::unanswered;
}

}  // namespace

Upstreams::Upstreams(const ForwardConfig& config, ForwardMetrics& metrics, Warn warn)
    : policy_(config.policy), tcp_only_(config.tcp_only), metrics_(metrics), warn_(std::move(warn)) {
  for (const Upstream& u : config.upstreams) {
    states_.push_back(std::make_unique<State>());
    states_.back()->where = u;
    metrics_.upstream_known(u.text);
  }
}

// A configuration reloaded away: its upstreams down no longer count.
Upstreams::~Upstreams() {
  for (const auto& s : states_)
    if (s->health.down()) metrics_.upstream_down(s->where.text, false);
}

std::vector<size_t> Upstreams::order() {
  size_t n = states_.size();
  size_t first = policy_ == Policy::round_robin ? next_++ % n
                 : policy_ == Policy::random    ? random_below(n)
                                                : 0;
  std::vector<size_t> out;
  for (size_t k = 0; k < n; k++)
    if (!states_[(first + k) % n]->health.down()) out.push_back((first + k) % n);
  if (out.empty()) out.push_back(random_below(n));
  return out;
}

bool Upstreams::any_healthy() const {
  for (const auto& s : states_)
    if (!s->health.down()) return true;
  return false;
}

void Upstreams::succeeded(size_t i) { changed(i, states_[i]->health.answered()); }

void Upstreams::failed(size_t i, Loop& loop) {
  if (states_[i]->health.want_probe(Health::Clock::now())) probe(i, loop);
}

// The probes hold the upstreams weakly: a configuration reloaded away ends
// its probes.
void Upstreams::probe(size_t i, Loop& loop) {
  metrics_.health_check(at(i).text);
  std::weak_ptr<Upstreams> weak = weak_from_this();
  auto done = [weak, i, &loop](ExchangeResult& r) {
    auto self = weak.lock();
    if (!self) return;
    // A connection's failure (TLS's, above all) says why.
    if (!r.why.empty()) self->warn_("upstream " + self->at(i).text + ": " + r.why);
    self->probed(i, outcome_of(r), loop);
  };
  exchange(loop, at(i), tcp_only_, probe_query(), kProbeTimeoutMs, QueryOwner{.probe = true}, done);
}

void Upstreams::probed(size_t i, Health::Probe outcome, Loop& loop) {
  if (outcome == Health::Probe::unanswered) metrics_.health_check_failed(at(i).text);
  changed(i, states_[i]->health.probed(outcome, Health::Clock::now()));
  if (outcome == Health::Probe::answered) return;
  std::weak_ptr<Upstreams> weak = weak_from_this();
  loop.after(Health::kProbeMs, [weak, i, &loop] {
    if (auto self = weak.lock()) self->probe(i, loop);
  });
}

void Upstreams::changed(size_t i, Health::Change change) {
  const std::string& to = at(i).text;
  if (change == Health::Change::up) {
    metrics_.upstream_down(to, false);
    warn_("upstream " + to + " answers again");
  } else if (change == Health::Change::down) {
    metrics_.upstream_down(to, true);
    bool all = !any_healthy();
    warn_("upstream " + to + " down: " + std::to_string(Health::kMaxFails) +
          " health checks in a row unanswered, asked again every " + std::to_string(Health::kProbeMs) + " ms" +
          (all ? "; every upstream of its zones is down" : ""));
    if (all) metrics_.all_down();
  }
}

}  // namespace rk8s::server
