// SPDX-License-Identifier: Apache-2.0
// A client's query as the handler reads it (handler.h): its header, question, OPT
// and TSIG, what it gets before any lookup, and the bytes its reply may
// take.
#pragma once

#include <cstddef>
#include <cstdint>

#include "libresolv-k8s/dns/wire.h"
#include "server/util/names.h"

namespace rk8s::server {

constexpr uint16_t kTypeTsig = 250;

// What a reply to a signed query echoes of its TSIG (RFC 8945 5.3.2): the
// key's and the algorithm's names, the time and fudge, the original ID.
struct Tsig {
  Name key;
  Name algorithm;
  uint8_t time_fudge[8];
  uint16_t original_id = 0;
};

// One query, read.
struct Query {
  dns::Header header;
  dns::Question question;
  bool has_question = false;
  bool has_edns = false;
  dns::Edns edns;
  bool has_tsig = false;
  Tsig tsig;
};

// The rcode a query gets before any lookup: NOTIMP for an opcode other
// than QUERY, whatever follows (RFC 8906 8.1.4); FORMERR for a question
// count but 1, anything that does not parse, an OPT twice or outside the
// additional section (RFC 6891 6.1.1), a TSIG anywhere but last or one
// that cannot be read (RFC 8945 5.2); else NOERROR. Every record is read
// whatever fails before it, so that a FORMERR carries the query's OPT
// (RFC 6891 7). `reader` has read the header into `q.header`.
uint8_t read_query(dns::Reader& reader, Query& q);

// The bytes a reply to `q` may take: 65535 over TCP; over UDP the
// client's EDNS payload size (512 without OPT), 512 to `max_udp_size`.
size_t reply_limit(const Query& q, bool tcp, size_t max_udp_size);

}  // namespace rk8s::server
