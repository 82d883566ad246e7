// SPDX-License-Identifier: Apache-2.0
// An autopath reply as the matched candidate's own.
#pragma once

#include "dns/autopath.h"

namespace rk8s::autopath {

// A MATCHED reply made into the matched candidate's own reply, as a plain
// query for it would have come back (section 7 read backwards): the
// question renamed to `candidate`, the synthesized CNAME dropped when
// `synthesized`, the option under `code` taken out of the OPT record, and
// the OPT record dropped unless `keep_opt`. Its length, or 0 when `msg` does
// not read whole or the result does not fit `cap`.
size_t candidate_reply(Bytes msg, const dns::Name& candidate, bool synthesized, uint16_t code,
                       bool keep_opt, uint8_t* out, size_t cap);

}  // namespace rk8s::autopath
