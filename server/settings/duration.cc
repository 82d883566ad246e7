// SPDX-License-Identifier: Apache-2.0
#include "server/settings/duration.h"

#include "server/util/strings.h"

namespace rk8s::server {

namespace {

struct Unit {
  std::string_view name;
  uint64_t ms;
};
constexpr Unit kSeconds[] = {{"h", 3600000}, {"m", 60000}, {"s", 1000}};
constexpr Unit kMilliseconds[] = {{"h", 3600000}, {"ms", 1}, {"m", 60000}, {"s", 1000}};
constexpr uint64_t kMaxMs = uint64_t(kMaxDurationSeconds) * 1000;

// Numbers each followed by one of `units` (the longer names first).
template <size_t N>
bool parse_units(std::string_view text, const Unit (&units)[N], uint64_t& ms) {
  if (text.empty()) return false;
  uint64_t total = 0;
  while (!text.empty()) {
    size_t digits = text.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string_view::npos) return false;
    std::string_view rest = text.substr(digits);
    const Unit* unit = nullptr;
    for (const Unit& u : units)
      if (rest.substr(0, u.name.size()) == u.name) {
        unit = &u;
        break;
      }
    unsigned long n;
    if (!unit || !parse_uint(text.substr(0, digits), kMaxMs / unit->ms, n)) return false;
    total += uint64_t(n) * unit->ms;
    if (total > kMaxMs) return false;
    text.remove_prefix(digits + unit->name.size());
  }
  ms = total;
  return true;
}

}  // namespace

bool parse_duration(std::string_view text, uint32_t& seconds) {
  uint64_t ms;
  if (!parse_units(text, kSeconds, ms)) return false;
  seconds = uint32_t(ms / 1000);
  return true;
}

bool parse_duration_ms(std::string_view text, uint64_t& ms) { return parse_units(text, kMilliseconds, ms); }

}  // namespace rk8s::server
