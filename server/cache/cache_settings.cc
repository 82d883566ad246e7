// SPDX-License-Identifier: Apache-2.0
#include "server/cache/cache_settings.h"

#include <string_view>

#include "server/settings/quantity.h"

namespace rk8s::server {

namespace {

constexpr unsigned long kMaxCacheEntries = 100'000'000;
constexpr unsigned long kMaxHits = 1'000'000;
constexpr uint64_t kMinCacheBytes = 64 << 10;  // room for a few of the largest answers
constexpr unsigned kMaxClientTimeoutMs = 60000;

constexpr std::string_view kCacheKeys[] = {"capacity", "maxBytes", "positiveTTL", "negativeTTL", "prefetch",
                                           "prefetchPercentage", "prefetchMinHits", "prefetchPeriod", "serveStale"};
constexpr std::string_view kServeStaleKeys[] = {"maxStale", "staleTTL", "clientTimeout", "failureRecheck", "mode"};

ServeStaleConfig serve_stale(const Field& f) {
  Mapping m = f.mapping(kServeStaleKeys);
  ServeStaleConfig s;
  if (const Field* d = m.find("maxStale")) s.max_stale = d->duration_seconds();
  if (const Field* d = m.find("staleTTL")) s.stale_ttl = d->duration_seconds();
  if (const Field* d = m.find("clientTimeout")) s.client_timeout_ms = d->duration_ms(kMaxClientTimeoutMs);
  if (const Field* d = m.find("failureRecheck")) s.failure_recheck = d->duration_seconds();
  if (const Field* c = m.find("mode")) s.mode = StaleMode(c->choice({"Verify", "Immediate"}));
  return s;
}

}  // namespace

CacheConfig parse_cache_settings(const Field& f) {
  Mapping m = f.mapping(kCacheKeys);
  CacheConfig c;
  if (const Field* b = m.find("prefetch")) c.prefetch.enabled = b->boolean();
  if (const Field* n = m.find("prefetchPercentage")) c.prefetch.percentage = unsigned(n->number(1, 100));
  if (const Field* n = m.find("prefetchMinHits")) c.prefetch.min_hits = uint32_t(n->number(1, kMaxHits));
  if (const Field* d = m.find("prefetchPeriod")) {
    c.prefetch.period = d->duration_seconds();
    if (c.prefetch.period == 0) d->fail("must be at least 1s");
  }
  if (const Field* n = m.find("capacity")) c.capacity = n->number(1, kMaxCacheEntries);
  if (const Field* n = m.find("maxBytes")) c.max_bytes = n->bytes(kMinCacheBytes, kMaxSettingBytes);
  if (const Field* d = m.find("positiveTTL")) c.positive_ttl = d->duration_seconds();
  if (const Field* d = m.find("negativeTTL")) c.negative_ttl = d->duration_seconds();
  if (const Field* s = m.find("serveStale")) c.stale = serve_stale(*s);
  return c;
}

std::vector<SettingKeys> cache_setting_keys() { return {{"", kCacheKeys}, {"serveStale", kServeStaleKeys}}; }

}  // namespace rk8s::server
