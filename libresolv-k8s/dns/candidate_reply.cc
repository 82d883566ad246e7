// SPDX-License-Identifier: Apache-2.0
// An autopath reply as the matched candidate's own.
#include "dns/candidate_reply.h"

namespace rk8s::autopath {

constexpr size_t kMaxOptions = 16;

// The OPT record without the option under `code`.
static bool copy_opt(const dns::Reader& reader, const dns::Record& rec, uint16_t code,
                     dns::Writer& w) {
  dns::Edns edns;
  if (!dns::edns_from_record(reader, rec, edns) || edns.version != 0) return false;
  dns::EdnsOption kept[kMaxOptions], o;
  size_t n = 0, pos = 0;
  while (dns::edns_next_option(edns.options, pos, o)) {
    if (o.code == code) continue;
    if (n == kMaxOptions) return false;
    kept[n++] = o;
  }
  return w.opt(edns.udp_size, edns.ext_rcode, edns.flags, kept, n);
}

size_t candidate_reply(const MatchedReply& reply, bool keep_opt, uint8_t* out, size_t cap) {
  dns::Reader reader(reply.msg.data, reply.msg.size);
  dns::Header h;
  dns::Question q;
  if (!reader.header(h) || h.qdcount != 1 || !reader.question(q)) return 0;
  dns::Writer w(out, cap);
  w.header(h.id, h.flags);
  if (!w.question(reply.candidate, q.type, q.klass)) return 0;
  dns::Record rec;
  bool first = true;
  while (reader.record(rec)) {
    bool skip = reply.synthesized && first;
    first = false;
    if (skip) continue;
    bool ok = rec.type != dns::kTypeOPT ? dns::copy_record(reader, rec, w)
              : keep_opt                ? copy_opt(reader, rec, reply.code, w)
                                        : true;
    if (!ok) return 0;
  }
  return reader.ok() && !w.full() ? w.size() : 0;
}

}  // namespace rk8s::autopath
