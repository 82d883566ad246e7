// SPDX-License-Identifier: Apache-2.0
// Answers from upstreams through the cache (a Source, model/source.h): a fresh
// cached answer at once (in the last tenth of its TTL, with prefetch, also
// fetched anew in the background); else the question joins the same one in flight,
// or goes to the upstreams in the policy's order, UDP first (TCP after a
// truncated reply) or TCP only; each read waits kReadTimeoutMs, then the
// next upstream. When none answers: a stale answer (RFC 8767) if the cache
// still has one, else SERVFAIL. A question Flights turns away is answered
// at once: REFUSED beyond maxConcurrent (CoreDNS's), SERVFAIL marked
// over_budget when its query may ask no more, else stale or SERVFAIL.
// An ANY question is answered with its first RRset alone (RFC 8482).
#pragma once

#include <atomic>
#include <memory>

#include "server/model/source.h"
#include "server/cache/cache.h"
#include "server/forward/flights.h"
#include "server/forward/upstreams.h"

namespace rk8s::server {

// What every forwarder of the process shares.
struct ForwardShared {
  Cache& cache;
  CacheConfig caps;
  Flights& flights;
  ForwardMetrics& metrics;
  Warn warn;
};

class Forwarder : public Source {
 public:
  static constexpr unsigned kReadTimeoutMs = 2000;  // CoreDNS's

  Forwarder(std::shared_ptr<Upstreams> upstreams, ForwardShared shared)
      : upstreams_(std::move(upstreams)), shared_(shared) {}
  // From a worker loop only: replies come back on it.
  void resolve(const Ask& ask, Resolved done) override;
  const Upstreams& upstreams() const { return *upstreams_; }
  // A loop through the upstreams (loop_guard.h): from now on every question
  // the cache cannot answer gets SERVFAIL.
  void stop_forwarding() { looping_ = true; }
  bool looping() const { return looping_; }

 private:
  void refresh(const Ask& ask);
  void refuse(Refusal why, const CacheKey& key, uint16_t type, Resolved& done);

  std::shared_ptr<Upstreams> upstreams_;
  ForwardShared shared_;
  std::atomic<bool> looping_{false};
};

// The cache's key for a question.
CacheKey cache_key(const Ask& ask);
// The resolution of an upstream's answer for `type`, `age` seconds into
// the `ttl` the cache keeps it (0: not kept); `refresh_in_ms` from now a
// prefetch is due (Reuse::refresh_in_ms).
Resolution resolution_of(std::shared_ptr<const CachedAnswer> answer, uint16_t type, uint32_t ttl,
                         uint32_t age, bool stale, uint32_t refresh_in_ms);

}  // namespace rk8s::server
