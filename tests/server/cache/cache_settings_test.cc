// SPDX-License-Identifier: Apache-2.0
// `cache` in the config file: its size, TTL caps, prefetch and serve-stale,
// each key read into its field, and each bad value's error.
#include "server/cache/cache_settings.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using test::SectionCase;
using test::Strings;

CacheConfig read(const std::string& yaml) {
  return test::read_section(yaml, "cache", [](const Field* f) { return f ? parse_cache_settings(*f) : CacheConfig{}; });
}

// The settings as lines a table can name.
Strings summary(const CacheConfig& c) {
  return {"cache " + std::to_string(c.capacity) + " " + std::to_string(c.positive_ttl) + " " +
              std::to_string(c.negative_ttl) + (c.prefetch.enabled ? "" : " no-prefetch") +
              (c.max_bytes ? " " + std::to_string(c.max_bytes) + "B" : ""),
          "prefetch " + std::to_string(c.prefetch.percentage) + "% " + std::to_string(c.prefetch.min_hits) + " in " +
              std::to_string(c.prefetch.period),
          "stale " + std::to_string(c.stale.max_stale) + " ttl " + std::to_string(c.stale.stale_ttl) + " timeout " +
              std::to_string(c.stale.client_timeout_ms) + "ms recheck " + std::to_string(c.stale.failure_recheck) +
              (c.stale.mode == StaleMode::immediate ? " Immediate" : " Verify")};
}

TEST(CacheSettings, EachKeyReadsIntoItsField) {
  const struct {
    std::string yaml, line;
  } cases[] = {
      // Defaults, then each key.
      {"", "cache 10000 900 30"},
      {"", "prefetch 10% 1 in 60"},
      {"", "stale 3600 ttl 30 timeout 1800ms recheck 30 Verify"},
      {"cache: {}\n", "cache 10000 900 30"},
      {"cache: {capacity: 5}\n", "cache 5 900 30"},
      {"cache: {positiveTTL: 1h30m, negativeTTL: 0s, prefetch: false}\n", "cache 10000 5400 0 no-prefetch"},
      {"cache: {maxBytes: 64Ki}\n", "cache 10000 900 30 65536B"},
      {"cache: {prefetchPercentage: 20, prefetchMinHits: 3, prefetchPeriod: 10s}\n", "prefetch 20% 3 in 10"},
      {"cache: {serveStale: {maxStale: 24h, staleTTL: 10s, clientTimeout: 500ms, failureRecheck: 1m, "
       "mode: Immediate}}\n",
       "stale 86400 ttl 10 timeout 500ms recheck 60 Immediate"},
      {"cache: {serveStale: {maxStale: 0s, clientTimeout: 0s}}\n", "stale 0 ttl 30 timeout 0ms recheck 30 Verify"},
  };
  for (const auto& c : cases) {
    Strings lines = summary(read(c.yaml));
    EXPECT_NE(std::find(lines.begin(), lines.end(), c.line), lines.end()) << c.yaml << "--- wanted: " << c.line;
  }
}

TEST(CacheSettings, Errors) {
  const SectionCase cases[] = {
      {"cache: {capacity: 0}\n", "c.yaml:1: capacity: expected a number from 1 to 100000000, got '0'"},
      {"cache: {capacity: many}\n", "c.yaml:1: capacity: expected a number"},
      {"cache:\n  positiveTTL: 30\n", "c.yaml:2: positiveTTL: '30' needs a unit: 30s, 5m, 1h"},
      {"cache: {negativeTTL: 1.5s}\n", "c.yaml:1: negativeTTL: '1.5s' is not a duration such as 30s, 5m or 1h30m"},
      {"cache: {negativeTTL: }\n", "c.yaml:1: negativeTTL: expected text"},
      {"cache: {size: 1}\n", "c.yaml:1: cache: unknown key 'size'"},
      {"cache: {prefetch: on}\n", "c.yaml:1: prefetch: expected true or false, got 'on'"},
      {"cache: {maxBytes: 1Ki}\n", "c.yaml:1: maxBytes: '1Ki' is not a size such as 128Mi"},
      {"cache: {prefetchPercentage: 0}\n", "c.yaml:1: prefetchPercentage: expected a number from 1 to 100, got '0'"},
      {"cache: {prefetchPeriod: 0s}\n", "c.yaml:1: prefetchPeriod: must be at least 1s"},
      {"cache: {serveStale: {clientTimeout: 61s}}\n",
       "c.yaml:1: clientTimeout: '61s' is not a duration such as 1800ms or 2s (at most 60000ms)"},
      {"cache: {serveStale: {mode: lazy}}\n", "c.yaml:1: mode: 'lazy' is not one of Verify, Immediate"},
      {"cache: {serveStale: {maxAge: 1h}}\n", "c.yaml:1: serveStale: unknown key 'maxAge'"},
  };
  test::expect_section_errors(cases, "cache", [](const Field* f) { return parse_cache_settings(*f); });
}

}  // namespace
}  // namespace rk8s::server
