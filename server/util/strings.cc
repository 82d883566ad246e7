// SPDX-License-Identifier: Apache-2.0
#include "server/util/strings.h"

#include <charconv>

namespace rk8s::server {

bool parse_uint(std::string_view text, unsigned long max, unsigned long& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out <= max;
}

}  // namespace rk8s::server
