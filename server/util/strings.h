// SPDX-License-Identifier: Apache-2.0
// What the server adds to the core's util/text.h for its std::string and
// std::string_view text.
#pragma once

#include <string>
#include <string_view>

#include "libresolv-k8s/util/text.h"

namespace rk8s::server {

// The core reads text as Str (util/base.h's str() for C strings).
inline Str str(std::string_view s) { return Str{s.data(), s.size()}; }

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = rk8s::ascii_lower(c);
  return out;
}

// All of `text` as a decimal number no greater than `max`.
bool parse_uint(std::string_view text, unsigned long max, unsigned long& out);

}  // namespace rk8s::server
