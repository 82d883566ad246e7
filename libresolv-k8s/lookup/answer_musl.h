// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lookup/answer.h"

namespace rk8s {

// musl's own reading of `msg`'s answer section (__dns_parse), as release
// `musl` reads the reply to a `qtype` query: its addresses and canonical
// name into `out`, whatever the owner names. False where musl reads on past
// the end of `msg`, into stale bytes of its buffer (before 1.2.4); we stop.
bool read_musl_answers(Bytes msg, uint16_t qtype, uint32_t musl, Answer& out);

}  // namespace rk8s
