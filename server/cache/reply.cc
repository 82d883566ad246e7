// SPDX-License-Identifier: Apache-2.0
#include "server/cache/reply.h"

namespace rk8s::server {

namespace {

bool copy_rdata(const dns::Reader& reader, const dns::Record& rec, std::vector<uint8_t>& out) {
  out.clear();
  return dns::read_rdata(
      reader, rec,
      [&](Bytes b) {
        out.insert(out.end(), b.data, b.data + b.size);
        return true;
      },
      [&](const Name& n) {
        put_name(out, n);
        return true;
      });
}

}  // namespace

bool read_upstream_reply(Bytes msg, CachedAnswer& out) {
  dns::Reader reader(msg.data, msg.size);
  dns::Header header;
  if (!reader.header(header)) return false;
  CachedAnswer answer;
  answer.rcode = header.rcode();
  answer.truncated = header.tc();
  answer.authentic_data = header.flags & dns::kFlagAD;
  dns::Record rec;
  while (reader.record(rec)) {
    if (rec.type == dns::kTypeOPT) {
      answer.rcode |= uint16_t(rec.ttl >> 24 << 4);  // RFC 6891 section 6.1.3
      continue;
    }
    if (rec.klass != dns::kClassIN) continue;
    uint32_t ttl = rec.ttl & 0x80000000 ? 0 : rec.ttl;
    CachedRecord& kept =
        answer.records.emplace_back(CachedRecord{rec.name, Rr{rec.type, ttl, {}}, rec.section});
    if (!copy_rdata(reader, rec, kept.rr.rdata)) return false;
  }
  if (!reader.ok() && !answer.truncated) return false;
  out = std::move(answer);
  return true;
}

}  // namespace rk8s::server
