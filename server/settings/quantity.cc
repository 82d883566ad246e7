// SPDX-License-Identifier: Apache-2.0
#include "server/settings/quantity.h"

#include "server/util/strings.h"

namespace rk8s::server {

bool parse_quantity(std::string_view text, uint64_t max, uint64_t& bytes) {
  static constexpr struct {
    std::string_view suffix;
    uint64_t factor;
  } kUnits[] = {{"Ki", 1ull << 10}, {"Mi", 1ull << 20}, {"Gi", 1ull << 30}, {"Ti", 1ull << 40},
                {"k", 1000},        {"M", 1000000},     {"G", 1000000000},  {"T", 1000000000000}};
  uint64_t factor = 1;
  for (const auto& u : kUnits)
    if (text.size() > u.suffix.size() && text.substr(text.size() - u.suffix.size()) == u.suffix) {
      factor = u.factor;
      text.remove_suffix(u.suffix.size());
      break;
    }
  unsigned long n;
  if (!parse_uint(text, max / factor, n)) return false;
  bytes = uint64_t(n) * factor;
  return true;
}

}  // namespace rk8s::server
