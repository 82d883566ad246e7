// SPDX-License-Identifier: Apache-2.0
#include "server/data/zone_fields.h"

#include "libresolv-k8s/dns/wire.h"
#include "server/util/strings.h"

namespace rk8s::server {

const char* rdata_syntax(uint16_t type) {
  switch (type) {
    case dns::kTypeA: return "a";
    case dns::kTypeAAAA: return "6";
    case dns::kTypeNS:
    case dns::kTypeCNAME:
    case dns::kTypePTR: return "n";
    case dns::kTypeMX: return "sn";
    case dns::kTypeSRV: return "sssn";
    case dns::kTypeTXT: return "x";
    case dns::kTypeSOA: return "nnltttt";
    default: return nullptr;
  }
}

bool parse_number(std::string_view text, uint64_t max, uint64_t& out) {
  unsigned long n;
  if (text.size() > 10 || !parse_uint(text, max, n)) return false;
  out = n;
  return true;
}

bool parse_ttl(std::string_view s, uint32_t& out) {
  uint64_t total = 0, n = 0;
  bool digits = false;
  for (char c : s) {
    if (is_digit(c)) {
      n = n * 10 + uint64_t(c - '0');
      digits = true;
      if (n > UINT32_MAX) return false;
      continue;
    }
    static const std::string_view units = "smhdw";
    static const uint64_t scale[] = {1, 60, 3600, 86400, 604800};
    size_t u = units.find(rk8s::ascii_lower(c));
    if (!digits || u == std::string_view::npos) return false;
    total += n * scale[u];
    n = 0;
    digits = false;
  }
  total += n;
  if (s.empty() || total > UINT32_MAX) return false;
  out = uint32_t(total);
  return true;
}

bool is_absolute(std::string_view text) {
  size_t backslashes = 0;
  for (size_t i = text.size() - 1; i > 0 && text[i - 1] == '\\'; --i) ++backslashes;
  return text.back() == '.' && backslashes % 2 == 0;
}

bool unescape(std::string_view s, std::string& out) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (i + 3 < s.size() && is_digit(s[i + 1]) && is_digit(s[i + 2]) &&
               is_digit(s[i + 3])) {
      int v = (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0');
      if (v > 255) return false;
      out += char(v);
      i += 3;
    } else if (i + 1 < s.size()) {
      out += s[++i];
    }
  }
  return out.size() <= 255;
}

}  // namespace rk8s::server
