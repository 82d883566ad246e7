// SPDX-License-Identifier: Apache-2.0
// Types and rcodes as the flags, the query log and the metrics write them:
// the core's mnemonics (dns/wire.h), and numbers for the rest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rk8s::server {

// "A", "aaaa", ... or a number; 0 when neither.
uint16_t type_from_text(std::string_view text);
// "A", ... or "TYPE123".
std::string type_to_text(uint16_t type);
// NOERROR ... REFUSED, or "RCODE16": extended rcodes (BADVERS) go by number.
std::string rcode_to_text(uint8_t rcode);

}  // namespace rk8s::server
