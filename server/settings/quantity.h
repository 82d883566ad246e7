// SPDX-License-Identifier: Apache-2.0
// Memory sizes as Kubernetes writes them (resource.Quantity, in whole
// units): "128Mi", "64M", "1Gi", "1048576".
#pragma once

#include <cstdint>
#include <string_view>

namespace rk8s::server {

// The largest size a setting takes (cache.maxBytes, limits.memory): 1 TiB.
constexpr uint64_t kMaxSettingBytes = uint64_t(1) << 40;

// A whole number with an optional suffix: Ki, Mi, Gi, Ti (powers of 1024)
// or k, M, G, T (powers of 1000). False for anything else, or above `max`.
bool parse_quantity(std::string_view text, uint64_t max, uint64_t& bytes);

}  // namespace rk8s::server
