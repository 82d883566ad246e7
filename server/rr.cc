#include "server/rr.h"

namespace rk8s::server {

void put16(std::vector<uint8_t>& out, uint16_t v) {
  out.push_back(uint8_t(v >> 8));
  out.push_back(uint8_t(v));
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  put16(out, uint16_t(v >> 16));
  put16(out, uint16_t(v));
}

void put_name(std::vector<uint8_t>& out, const Name& name) {
  out.insert(out.end(), name.wire, name.wire + name.len);
}

Name rr_target(const Rr& rr) {
  Name name;
  name_from_wire(rr.rdata.data(), rr.rdata.size(), name);
  return name;
}

uint32_t soa_negative_ttl(const Rr& soa) {
  uint32_t minimum = load32(soa.rdata.data() + soa.rdata.size() - 4);
  return std::min(soa.ttl, minimum);
}

// Fixed fields before the one name in MX and SRV rdata.
static size_t fixed_prefix(uint16_t type) {
  switch (type) {
    case dns::kTypeMX: return 2;
    case dns::kTypeSRV: return 6;
    default: return 0;
  }
}

bool write_rr(dns::Writer& w, dns::Section section, const Name& owner, const Rr& rr) {
  const uint8_t* p = rr.rdata.data();
  size_t n = rr.rdata.size();
  switch (rr.type) {
    case dns::kTypeCNAME:
    case dns::kTypeNS:
    case dns::kTypePTR:
    case dns::kTypeMX:
    case dns::kTypeSRV: {
      size_t fixed = fixed_prefix(rr.type);
      Name target;
      name_from_wire(p + fixed, n - fixed, target);
      return w.begin_record(section, owner, rr.type, rr.ttl) &&
             w.rdata_bytes(Bytes{p, fixed}) && w.rdata_name(target) && w.end_record();
    }
    case dns::kTypeSOA: {
      Name mname, rname;
      size_t m = name_from_wire(p, n, mname);
      size_t r = name_from_wire(p + m, n - m, rname);
      return w.begin_record(section, owner, rr.type, rr.ttl) && w.rdata_name(mname) &&
             w.rdata_name(rname) && w.rdata_bytes(Bytes{p + m + r, 20}) && w.end_record();
    }
    default:
      return w.record(section, owner, rr.type, rr.ttl, Bytes{p, n});
  }
}

}  // namespace rk8s::server
