// SPDX-License-Identifier: Apache-2.0
#include "server/config/duration.h"

#include "server/util/strings.h"

namespace rk8s::server {

namespace {

uint32_t unit_seconds(char unit) {
  switch (unit) {
    case 'h': return 3600;
    case 'm': return 60;
    case 's': return 1;
    default: return 0;
  }
}

}  // namespace

bool parse_duration(std::string_view text, uint32_t& seconds) {
  if (text.empty()) return false;
  uint64_t total = 0;
  while (!text.empty()) {
    size_t digits = text.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string_view::npos) return false;
    unsigned long n;
    uint32_t unit = unit_seconds(text[digits]);
    if (!unit || !parse_uint(text.substr(0, digits), kMaxDurationSeconds, n)) return false;
    total += uint64_t(n) * unit;
    if (total > kMaxDurationSeconds) return false;
    text.remove_prefix(digits + 1);
  }
  seconds = uint32_t(total);
  return true;
}

}  // namespace rk8s::server
