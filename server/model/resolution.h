// SPDX-License-Identifier: Apache-2.0
// What one name and type resolve to, whoever answers it (the store, an
// upstream through the cache, a walk): the sections of an answer and how
// to write their TTLs.
#pragma once

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "server/model/rr.h"

namespace rk8s::server {

struct RrRef {
  Name owner;  // the query name for a wildcard match
  const Rr* rr = nullptr;
};

// How long the packet cache (cache/packet_cache.h) may answer the same
// question with a reply made of resolutions: `kept` seconds, those it is
// sure to get the same resolution again (what is left of a cached answer,
// 0 for one that was not kept or is stale, UINT32_MAX for data, which
// changes only with the configuration); after `refresh_in_ms`, when a
// cached answer's prefetch is due (forward/forwarder.h), one question must
// come through to start it.
struct Reuse {
  uint32_t kept = UINT32_MAX;
  uint32_t refresh_in_ms = UINT32_MAX;

  // A reply made of this and `part` too.
  void add(const Reuse& part) {
    kept = std::min(kept, part.kept);
    refresh_in_ms = std::min(refresh_in_ms, part.refresh_in_ms);
  }
};

// What one name and type resolve to, from the store or from an upstream
// through the cache: an answer's sections, and how to write their TTLs.
// Autopath candidates walked past as certain NXDOMAIN without asking them,
// by the cut that made them so (answer/autopath_settings.h's WalkCuts).
struct CandidatesCut {
  size_t schema = 0;
  size_t rfc8020 = 0;
};

struct Resolution {
  uint8_t rcode = dns::kNoError;
  bool authoritative = false;
  bool has_data = false;          // records of the type at the end of the chain
  std::vector<RrRef> records;     // the answer section: the CNAME chain, then the data
  std::vector<RrRef> authority;   // the zone's SOA for a negative answer; an upstream's
  std::vector<RrRef> additional;
  // A cached answer, kept entry_ttl seconds and `age` seconds old: its
  // TTLs count down; stale (RFC 8767), they say stale_ttl. `keep` holds the
  // records.
  uint32_t entry_ttl = UINT32_MAX;
  uint32_t age = 0;
  bool stale = false;
  uint32_t stale_ttl = 30;  // what a stale answer's TTLs say (serveStale.staleTTL)
  bool recursive = false;  // from an upstream: RA
  bool from_cache = false;  // a cached answer, not asked upstream for this question
  // The marker path's (answer/marker.h): its walk's autopath status and the
  // candidates it looked at, and those of them a cut skipped; 0 candidates
  // for any other answer.
  uint8_t marker_status = 0;
  size_t marker_walked = 0;
  CandidatesCut marker_cut;
  Reuse reuse;
  std::shared_ptr<const void> keep;
  // SERVFAIL without asking: the query had sent its last question upstream
  // (QueryScope); a walk then leaves the rest to the client (REJECTED).
  bool over_budget = false;

  bool exists() const { return rcode == dns::kNoError; }
  // The TTL `rr` is written with.
  uint32_t ttl_of(const Rr& rr) const;
  // The lowest TTL of the records; UINT32_MAX when there are none.
  uint32_t min_ttl() const;
  // The SOA of the authority section, or null.
  const RrRef* soa() const;
  // RFC 2308 negative TTL from the SOA; UINT32_MAX when there is no SOA.
  uint32_t negative_ttl() const;
};

// Records copied out of the resolutions they came from, so that answers
// cached at different times can go in one reply; the Resolution made of
// them holds this in `keep`.
struct HeldRecords {
  std::deque<Rr> rrs;  // stable addresses for the RrRefs
  RrRef add(const Name& owner, Rr rr);
  // `r` of `from`, its TTL as `from` writes it now.
  RrRef copy(const Resolution& from, const RrRef& r);
};

}  // namespace rk8s::server
