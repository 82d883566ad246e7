// SPDX-License-Identifier: Apache-2.0
#include "server/answer/client_query.h"

#include <algorithm>
#include <cstring>

namespace rk8s::server {
namespace {

// A TSIG's rdata (RFC 8945 4.2): the algorithm's name, uncompressed, the
// time and fudge, the MAC, the original ID, the error, the other data.
// False when it does not hold exactly those.
bool read_tsig(const dns::Reader& reader, const dns::Record& r, Tsig& out) {
  Bytes rdata = reader.rdata(r);
  size_t off = 0;
  if (!dns::name_from_wire(rdata, off, out.algorithm) || rdata.size - off < 10) return false;
  memcpy(out.time_fudge, rdata.data + off, 8);
  size_t mac = load16(rdata.data + off + 8);
  off += 10;
  if (rdata.size - off < mac + 6) return false;
  off += mac;
  out.original_id = load16(rdata.data + off);
  size_t other = load16(rdata.data + off + 4);
  out.key = r.name;
  return rdata.size - off - 6 == other;
}

}  // namespace

uint8_t read_query(dns::Reader& reader, Query& q) {
  q.has_question = q.header.qdcount == 1 && reader.question(q.question);
  bool formed = q.has_question;
  dns::Record r;
  while (reader.record(r)) {
    if (q.has_tsig) formed = false;  // a record after the TSIG
    if (r.type == dns::kTypeOPT) {
      if (q.has_edns || r.section != dns::kAdditional) formed = false;
      else if (!(q.has_edns = dns::edns_from_record(reader, r, q.edns))) formed = false;
    } else if (r.type == kTypeTsig) {
      if (r.section != dns::kAdditional || !read_tsig(reader, r, q.tsig)) formed = false;
      q.has_tsig = true;
    }
  }
  if (q.header.flags & dns::kOpcodeMask) return dns::kNotImp;
  return formed && reader.ok() ? dns::kNoError : dns::kFormErr;
}

size_t reply_limit(const Query& q, bool tcp, size_t max_udp_size) {
  if (tcp) return 65535;
  if (!q.has_edns) return 512;
  return std::clamp<size_t>(q.edns.udp_size, 512, std::max<size_t>(512, max_udp_size));
}

}  // namespace rk8s::server
