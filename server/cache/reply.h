// SPDX-License-Identifier: Apache-2.0
// An upstream's reply, read into records the server can keep and write
// again: every name expanded, so any later message can compress them anew.
#pragma once

#include <cstdint>
#include <vector>

#include "server/model/rr.h"

namespace rk8s::server {


struct CachedRecord {
  Name owner;
  Rr rr;
  dns::Section section = dns::kAnswer;
};

struct CachedAnswer {
  uint16_t rcode = dns::kNoError;  // with the OPT record's extended bits
  bool truncated = false;          // TC
  bool authentic_data = false;     // AD
  std::vector<CachedRecord> records;  // in message order: answer, authority, additional
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

}  // namespace rk8s::server
