// SPDX-License-Identifier: Apache-2.0
// Splits a master file into entries: the tokens of one record or
// directive, parentheses joining lines and comments removed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rk8s::server {

struct ZoneToken {
  std::string text;  // escapes kept as written; quotes removed
  bool quoted = false;
};

struct ZoneEntry {
  int line = 0;
  bool owner_omitted = false;  // the line starts with white space
  std::vector<ZoneToken> tokens;
};

std::vector<ZoneEntry> split_zone(std::string_view text, const std::string& file);

}  // namespace rk8s::server
