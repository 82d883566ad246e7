// SPDX-License-Identifier: Apache-2.0
// The autopath option payloads (docs/autopath-protocol.md).
#include "dns/autopath.h"

namespace rk8s::autopath {

const char* status_name(uint8_t status) {
  static const char* const names[] = {"MATCHED", "EXHAUSTED", "SERVFAIL_SEEN", "REJECTED"};
  return status <= kRejected ? names[status] : nullptr;
}

size_t encode_query(const QueryOption& q, uint8_t* out, size_t cap) {
  if (q.count == 0 || q.count > kMaxSuffixes || cap < 2) return 0;
  size_t n = 0;
  out[n++] = kVersion;
  out[n++] = q.flags;
  for (size_t i = 0; i < q.count; i++) {
    const dns::Name& s = q.suffix[i];
    if (cap - n < s.len) return 0;
    memcpy(out + n, s.wire, s.len);
    n += s.len;
  }
  return n;
}

QueryDecode decode_query(Bytes payload, QueryOption& out) {
  if (payload.size >= 1 && payload.data[0] != kVersion) return QueryDecode::bad_version;
  if (payload.size < 3 || !(payload.data[1] & kFlagQ)) return QueryDecode::malformed;
  out.flags = payload.data[1];
  out.count = 0;
  size_t off = 2;
  while (off < payload.size) {
    if (out.count == kMaxSuffixes || !dns::name_from_wire(payload, off, out.suffix[out.count]))
      return QueryDecode::malformed;
    out.count++;
  }
  return QueryDecode::ok;
}

size_t encode_reply(const ReplyOption& r, uint8_t* out, size_t cap) {
  size_t n = r.flags & kFlagPastNodata ? 5 : 4;
  if (cap < n) return 0;
  out[0] = kVersion;
  out[1] = r.flags;
  out[2] = r.status;
  out[3] = r.index;
  if (n == 5) out[4] = r.nodata;
  return n;
}

bool decode_reply(Bytes payload, const QueryOption& sent, ReplyOption& out) {
  if (payload.size < 4 || payload.data[0] != kVersion) return false;
  ReplyOption r{payload.data[1], payload.data[2], payload.data[3], kNoIndex};
  bool past_nodata = r.flags & kFlagPastNodata;
  if (payload.size != (past_nodata ? 5u : 4u)) return false;
  if ((r.flags & ~(sent.flags & (kFlagBoth | kFlagPastNodata))) != 0 || r.status > kRejected)
    return false;
  if (r.status == kMatched ? r.index >= sent.count : r.index != kNoIndex) return false;
  if (past_nodata) {
    r.nodata = payload.data[4];
    size_t verdict = r.status == kMatched ? r.index : sent.count;
    if (r.nodata != kNoIndex && r.nodata >= verdict) return false;
  }
  out = r;
  return true;
}

}  // namespace rk8s::autopath
