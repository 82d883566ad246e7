// SPDX-License-Identifier: Apache-2.0
#include "server/cache/reply.h"

#include <algorithm>
#include <cstring>

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

void CachedAnswer::add(const Name& owner, Rr rr, dns::Section section) {
  bool same = !records.empty() && names.size() - records.back().owner == owner.len &&
              memcmp(names.data() + records.back().owner, owner.wire, owner.len) == 0;
  uint32_t at = same ? records.back().owner : uint32_t(names.size());
  if (!same) names.append(reinterpret_cast<const char*>(owner.wire), owner.len);
  records.push_back(CachedRecord{std::move(rr), at, section});
}

Name CachedAnswer::owner(const CachedRecord& r) const {
  Name n;
  const uint8_t* wire = reinterpret_cast<const uint8_t*>(names.data()) + r.owner;
  size_t len = 1;
  while (wire[len - 1] != 0) len += wire[len - 1] + 1;
  n.len = uint8_t(len);
  std::copy(wire, wire + len, n.wire);
  return n;
}

size_t CachedAnswer::bytes() const {
  size_t total = heap_bytes(sizeof(CachedAnswer)) + heap_bytes(records.capacity() * sizeof(CachedRecord)) +
                 heap_bytes(names.capacity() > 15 ? names.capacity() + 1 : 0);
  for (const CachedRecord& r : records) total += heap_bytes(r.rr.rdata.capacity());
  return total;
}

bool read_upstream_reply(Bytes msg, CachedAnswer& out) {
  dns::Reader reader(msg.data, msg.size);
  dns::Header header;
  if (!reader.header(header)) return false;
  CachedAnswer answer;
  answer.rcode = header.rcode();
  answer.truncated = header.tc();
  answer.authentic_data = header.flags & dns::kFlagAD;
  dns::Record rec;
  Rr rr;
  while (reader.record(rec)) {
    if (rec.type == dns::kTypeOPT) {
      answer.rcode |= uint16_t(rec.ttl >> 24 << 4);  // RFC 6891 section 6.1.3
      continue;
    }
    if (rec.klass != dns::kClassIN) continue;
    rr.type = rec.type;
    rr.ttl = rec.ttl & 0x80000000 ? 0 : rec.ttl;
    if (!copy_rdata(reader, rec, rr.rdata)) return false;
    rr.rdata.shrink_to_fit();
    answer.add(rec.name, std::move(rr), rec.section);
  }
  if (!reader.ok() && !answer.truncated) return false;
  answer.records.shrink_to_fit();
  answer.names.shrink_to_fit();
  out = std::move(answer);
  return true;
}

}  // namespace rk8s::server
