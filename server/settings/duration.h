// SPDX-License-Identifier: Apache-2.0
// Durations as Kubernetes writes them (Go's time.ParseDuration), in whole
// units: "30s", "5m", "1h", "1h30m", "0s"; and "1800ms" where
// milliseconds are asked for.
#pragma once

#include <cstdint>
#include <string_view>

namespace rk8s::server {

// RFC 2181's largest TTL: a cache keeps nothing longer.
constexpr uint32_t kMaxDurationSeconds = 2147483647;

// Numbers each followed by h, m or s; false for a bare number, any other
// unit, or more than kMaxDurationSeconds.
bool parse_duration(std::string_view text, uint32_t& seconds);
// The same with ms too, in milliseconds.
bool parse_duration_ms(std::string_view text, uint64_t& ms);

}  // namespace rk8s::server
