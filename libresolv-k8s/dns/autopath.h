// SPDX-License-Identifier: Apache-2.0
// The autopath EDNS0 option, version 1 (docs/autopath-protocol.md): query
// and reply payloads.
#pragma once

#include "dns/wire.h"

namespace rk8s::autopath {

constexpr uint8_t kVersion = 1;
// The option code both ends use unless configured otherwise. Codes are taken
// from RFC 6891's local/experimental range, 65534 excepted (a 2019
// prototype's code): any other code could collide with an assigned option
// (15 is Extended DNS Errors).
constexpr uint16_t kDefaultCode = 65431;
constexpr uint16_t kMinCode = 65001;
constexpr uint16_t kMaxCode = 65533;
constexpr size_t kMaxSuffixes = 64;
constexpr uint8_t kNoIndex = 255;

enum Flags : uint8_t {
  kFlagQ = 0x01,
  kFlagPaired = 0x02,
  kFlagStopOnExists = 0x04,
  kFlagBoth = 0x08,
  kFlagPastNodata = 0x10,
};

enum Status : uint8_t {
  kMatched = 0,
  kExhausted = 1,
  kServfailSeen = 2,
  kRejected = 3,
};

// "MATCHED", "EXHAUSTED", "SERVFAIL_SEEN", "REJECTED"; nullptr beyond.
const char* status_name(uint8_t status);

struct QueryOption {
  uint8_t flags = kFlagQ;
  size_t count = 0;
  dns::Name suffix[kMaxSuffixes];
};

struct ReplyOption {
  uint8_t flags = 0;
  uint8_t status = kRejected;
  uint8_t index = kNoIndex;
  uint8_t nodata = kNoIndex;  // PAST_NODATA: the first candidate walked past as NODATA
};

enum class QueryDecode : uint8_t {
  ok,
  bad_version,  // the server answers plainly with REJECTED
  malformed,    // likewise: no suffix, a bad name, more than 64, Q clear, junk after
};

// Payload bytes into `out`; 0 when they do not fit `cap` or count is 0.
size_t encode_query(const QueryOption& q, uint8_t* out, size_t cap);
QueryDecode decode_query(Bytes payload, QueryOption& out);

// 4 bytes, 5 with PAST_NODATA; 0 when they do not fit `cap`.
size_t encode_reply(const ReplyOption& r, uint8_t* out, size_t cap);
// True only for a reply a real implementation produces to `sent`: version
// 1, Q clear, no flag `sent` did not ask for but BOTH and PAST_NODATA, 4
// bytes (5 with PAST_NODATA), a known status; MATCHED with an index below
// the suffix count, any other status with kNoIndex; a NODATA index before
// the verdict's candidate, or kNoIndex. A verbatim echo of our query option
// is not a reply.
bool decode_reply(Bytes payload, const QueryOption& sent, ReplyOption& out);

}  // namespace rk8s::autopath
