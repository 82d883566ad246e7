// SPDX-License-Identifier: Apache-2.0
#include "server/cache/ttl.h"

#include <algorithm>
#include <optional>

namespace rk8s::server {

namespace {

constexpr uint32_t kServfailTtl = 5;  // CoreDNS cache's `servfail` default

bool has_answers(const CachedAnswer& a) {
  return std::any_of(a.records.begin(), a.records.end(),
                     [](const CachedRecord& r) { return r.section == dns::kAnswer; });
}

uint32_t lowest_ttl(const CachedAnswer& a, dns::Section section) {
  uint32_t ttl = UINT32_MAX;
  for (const CachedRecord& r : a.records)
    if (r.section == section) ttl = std::min(ttl, r.rr.ttl);
  return ttl;
}

// RFC 2308 section 5, from the authority's SOA; none without one.
std::optional<uint32_t> negative_ttl(const CachedAnswer& a) {
  std::optional<uint32_t> ttl;
  for (const CachedRecord& r : a.records)
    if (r.section == dns::kAuthority && r.rr.type == dns::kTypeSOA)
      ttl = std::min(ttl.value_or(UINT32_MAX), soa_negative_ttl(r.rr));
  return ttl;
}

}  // namespace

uint32_t cache_ttl(const CachedAnswer& a, const CacheConfig& caps) {
  if (a.truncated) return 0;
  switch (a.rcode) {
    case dns::kNoError:
      if (has_answers(a))
        return std::min({lowest_ttl(a, dns::kAnswer), lowest_ttl(a, dns::kAuthority),
                         caps.positive_ttl});
      [[fallthrough]];
    case dns::kNxDomain: {
      std::optional<uint32_t> negative = negative_ttl(a);
      if (!negative) return 0;
      return std::min({*negative, lowest_ttl(a, dns::kAnswer), caps.negative_ttl});
    }
    case dns::kServFail:
      return std::min(kServfailTtl, caps.negative_ttl);
    default:
      return 0;
  }
}

}  // namespace rk8s::server
