#include "server/cache/reply.h"

#include <optional>

namespace rk8s::server {

namespace {


// The types RFC 3597 section 4 has a receiver decompress, but for SIG, NXT
// (obsolete) and NAPTR (RFC 3403 forbids compressing it): RFC 1035's, and
// those early servers compressed. Their constants beyond dns/wire.h's:
enum : uint16_t {
  kTypeMD = 3, kTypeMF = 4, kTypeMB = 7, kTypeMG = 8, kTypeMR = 9, kTypeMINFO = 14,
  kTypeRP = 17, kTypeAFSDB = 18, kTypeRT = 21, kTypePX = 26,
};

// Rdata holding names: `fixed` bytes, `names` names, then exactly `tail` bytes.
struct NameLayout {
  uint8_t fixed, names, tail;
};

std::optional<NameLayout> name_layout(uint16_t type) {
  switch (type) {
    case dns::kTypeNS: case kTypeMD: case kTypeMF: case dns::kTypeCNAME: case kTypeMB:
    case kTypeMG: case kTypeMR: case dns::kTypePTR:
      return NameLayout{0, 1, 0};
    case dns::kTypeSOA: return NameLayout{0, 2, 20};
    case kTypeMINFO: case kTypeRP: return NameLayout{0, 2, 0};
    case dns::kTypeMX: case kTypeAFSDB: case kTypeRT: return NameLayout{2, 1, 0};
    case kTypePX: return NameLayout{2, 2, 0};
    case dns::kTypeSRV: return NameLayout{6, 1, 0};
    default: return std::nullopt;
  }
}

bool expand_rdata(const dns::Reader& reader, const dns::Record& rec, NameLayout layout,
                  std::vector<uint8_t>& out) {
  const uint8_t* msg = reader.message();
  size_t off = rec.rdata_off, end = rec.rdata_off + rec.rdlength;
  if (rec.rdlength < layout.fixed) return false;
  out.assign(msg + off, msg + off + layout.fixed);
  off += layout.fixed;
  for (int i = 0; i < layout.names; i++) {
    Name name;
    if (!reader.name_at(off, name)) return false;
    put_name(out, name);
  }
  // off > end: a name ran on into the next record.
  if (off > end || end - off != layout.tail) return false;
  out.insert(out.end(), msg + off, msg + end);
  return true;
}

bool copy_rdata(const dns::Reader& reader, const dns::Record& rec, std::vector<uint8_t>& out) {
  if (std::optional<NameLayout> layout = name_layout(rec.type))
    return expand_rdata(reader, rec, *layout, out);
  Bytes rdata = reader.rdata(rec);
  out.assign(rdata.data, rdata.data + rdata.size);
  return true;
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
