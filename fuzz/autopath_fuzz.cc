// SPDX-License-Identifier: Apache-2.0
// Any bytes as autopath payloads: what decodes must encode to the same bytes.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dns/autopath.h"

using namespace rk8s;
using namespace rk8s::autopath;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static QueryOption q;
  static uint8_t out[2 + kMaxSuffixes * dns::kMaxName];
  Bytes payload{data, size};
  if (decode_query(payload, q) == QueryDecode::ok) {
    size_t n = encode_query(q, out, sizeof out);
    if (n != size || memcmp(out, data, size) != 0) abort();
  }
  // A reply to a query that asked for every reply flag.
  static QueryOption sent = [] {
    QueryOption o;
    o.flags = kFlagQ | kFlagBoth | kFlagPastNodata;
    o.count = kMaxSuffixes;
    return o;
  }();
  ReplyOption r;
  if (decode_reply(payload, sent, r)) {
    if (encode_reply(r, out, sizeof out) != size || memcmp(out, data, size) != 0) abort();
    if (r.flags & kFlagQ) abort();
  }
  return 0;
}
