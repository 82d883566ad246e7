// SPDX-License-Identifier: Apache-2.0
// Names, types and rcodes as text, as the flags, the files, the query log
// and the metrics write them: the core's presentation forms (dns/wire.h)
// for std::string, and numbers for mnemonics it lacks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "server/util/names.h"

namespace rk8s::server {

// Presentation form with the final dot, as dig prints it.
std::string name_text(const Name& name);
// Presentation text as an absolute name; false when it is not a valid name.
bool parse_name(std::string_view text, Name& out);

// "A", "aaaa", ... or a number; 0 when neither.
uint16_t type_from_text(std::string_view text);
// "A", ... or "TYPE123".
std::string type_to_text(uint16_t type);
// NOERROR ... REFUSED, or "RCODE16": extended rcodes (BADVERS) go by number.
std::string rcode_to_text(uint8_t rcode);

}  // namespace rk8s::server
