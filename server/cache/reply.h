// SPDX-License-Identifier: Apache-2.0
// An upstream's reply, read into records the server can keep and write
// again: every name expanded, so any later message can compress them anew.
// Kept compact, as the cache charges it by its size: each owner name once
// per run of records it owns, in its own wire length.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/model/rr.h"

namespace rk8s::server {

struct CachedRecord {
  Rr rr;
  uint32_t owner = 0;  // where its owner's wire name starts in CachedAnswer::names
  dns::Section section = dns::kAnswer;
};

struct CachedAnswer {
  uint16_t rcode = dns::kNoError;  // with the OPT record's extended bits
  bool truncated = false;          // TC
  bool authentic_data = false;     // AD
  std::vector<CachedRecord> records;  // in message order: answer, authority, additional
  std::string names;                  // the owners' wire names, back to back

  // Appends a record; an owner equal to the last record's is stored once.
  void add(const Name& owner, Rr rr, dns::Section section);
  Name owner(const CachedRecord& r) const;
  // The heap memory it holds, allocator overhead included: what the cache
  // charges for it.
  size_t bytes() const;
};

// Reads `msg`, whose ID and question the caller has checked. Kept: records
// of class IN (a reply to an IN question holds nothing else worth serving;
// TSIG, class ANY, is per hop like OPT), without the OPT record. The rdata
// of the types whose names a server may have compressed (RFC 3597 section 4)
// is expanded and must hold exactly its fields; other rdata is copied as is.
// A TTL with its top bit set reads as 0 (RFC 2181 section 8). False when
// the message is malformed, except that a truncated (TC) one may end
// anywhere: it keeps the records before its end.
bool read_upstream_reply(Bytes msg, CachedAnswer& out);

// What a heap block of `n` bytes costs (glibc's malloc: a header, 16-byte
// granules, 32 bytes at least); 0 for none.
constexpr size_t heap_bytes(size_t n) {
  return n == 0 ? 0 : n + 8 + 15 < 32 ? 32 : (n + 8 + 15) / 16 * 16;
}

}  // namespace rk8s::server
