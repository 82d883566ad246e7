// SPDX-License-Identifier: Apache-2.0
// The fields of a master-file record, read from their text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rk8s::server {

// The rdata fields of a type zone files may hold, one letter each: a IPv4,
// 6 IPv6, n name, s 16-bit number, l 32-bit number, t TTL-style number,
// x one or more character strings. Null for other types.
const char* rdata_syntax(uint16_t type);
// A decimal number of at most 10 digits, no greater than `max`.
bool parse_number(std::string_view text, uint64_t max, uint64_t& out);
// Seconds, or BIND's units: 1h30m, 2d, 1w.
bool parse_ttl(std::string_view text, uint32_t& out);
// Ends with a dot that is not escaped.
bool is_absolute(std::string_view text);
// A TXT character-string, \X and \DDD escapes decoded; false over 255 bytes.
bool unescape(std::string_view text, std::string& out);

}  // namespace rk8s::server
