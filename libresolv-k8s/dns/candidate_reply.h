// SPDX-License-Identifier: Apache-2.0
// An autopath reply as the matched candidate's own.
#pragma once

#include "dns/autopath.h"

namespace rk8s::autopath {

// A MATCHED reply to an autopath query whose option went under `code`: the
// candidate it matched, and whether it begins with the CNAME synthesized to
// it.
struct MatchedReply {
  Bytes msg;
  const dns::Name& candidate;
  bool synthesized;
  uint16_t code;
};

// `reply` made into the matched candidate's own reply, as a plain query for
// it would have come back (section 7 read backwards): the question renamed
// to the candidate, the synthesized CNAME dropped, the option taken out of
// the OPT record, and the OPT record dropped unless `keep_opt`. Its length,
// or 0 when the reply does not read whole or the result does not fit `cap`.
size_t candidate_reply(const MatchedReply& reply, bool keep_opt, uint8_t* out, size_t cap);

}  // namespace rk8s::autopath
