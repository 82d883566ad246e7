// SPDX-License-Identifier: Apache-2.0
// Answers from upstreams through the cache (a Source, model/source.h): a fresh
// cached answer at once (near the end of its TTL, with prefetch, also
// fetched anew in the background); else the question joins the same one in
// flight, or goes to the upstreams in the policy's order, UDP first (TCP
// after a truncated reply) or TCP only; each read waits kReadTimeoutMs,
// then the next upstream. An expired answer still in the cache is served
// as RFC 8767 says (cache.serveStale): when no upstream answers; when the
// question outlasts clientTimeout; at once in Immediate mode, or while the
// name's upstreams failed less than failureRecheck ago. A query that waits
// is charged what it holds to its client (held_bytes.h); it holds the stale
// entry itself, shared with the cache, and its clientTimeout timer ends
// when the answer comes. A question Flights or the held bytes turn away is
// answered at once: REFUSED beyond maxConcurrent (CoreDNS's), SERVFAIL
// marked over_budget when its query may ask no more, else stale or
// SERVFAIL. An ANY question is answered with its first RRset alone (RFC 8482).
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "server/model/source.h"
#include "server/cache/cache.h"
#include "server/forward/flights.h"
#include "server/forward/held_bytes.h"
#include "server/forward/upstreams.h"

namespace rk8s::server {

// What every forwarder of the process shares.
struct ForwardShared {
  Cache& cache;
  CacheConfig caps;
  Flights& flights;
  HeldBytes& held;
  ForwardMetrics& metrics;
  Warn warn;
  // autopath.rfc8020Cut's cluster domain: under it, an NXDOMAIN that CoreDNS
  // keeps for every name below and every type (util/coredns_names.h)
  // answers them from the cache (RFC 8020, RFC 2308 section 5). Elsewhere
  // an NXDOMAIN answers its own type alone, as in CoreDNS's cache and
  // unbound: an upstream may say NXDOMAIN for one type of a name that has
  // others (RFC 4074 section 4.2).
  std::optional<Name> below_nxdomain;
};

class Forwarder : public Source {
 public:
  static constexpr unsigned kReadTimeoutMs = 2000;  // CoreDNS's
  // What a client's query is charged while it waits (held_bytes.h).
  static const size_t kWaitingBytes;

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
  class Asker;
  void refresh(const Ask& ask);
  std::optional<CacheHit> nxdomain_above(const CacheKey& key, const Name& name, Cache::Clock::time_point now);
  void refuse(Refusal why, Asker& asker);

  std::shared_ptr<Upstreams> upstreams_;
  ForwardShared shared_;
  std::atomic<bool> looping_{false};
};

// The cache's key for a question.
CacheKey cache_key(const Ask& ask);
// The resolution of a cached (or just inserted) answer for `type`; stale,
// its TTLs say `stale_ttl`.
Resolution resolution_of(const CacheHit& hit, uint16_t type, uint32_t stale_ttl);

}  // namespace rk8s::server
