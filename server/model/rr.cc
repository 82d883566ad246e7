// SPDX-License-Identifier: Apache-2.0
#include "server/model/rr.h"

#include <algorithm>

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

namespace {

Bytes rdata_of(const Rr& rr) { return Bytes{rr.rdata.data(), rr.rdata.size()}; }

// Fixed fields before the name: MX's preference; SRV's priority, weight, port.
size_t name_offset(uint16_t type) {
  switch (type) {
    case dns::kTypeMX: return 2;
    case dns::kTypeSRV: return 6;
    default: return 0;
  }
}

}  // namespace

Name rr_target(const Rr& rr) {
  Name name;
  size_t off = name_offset(rr.type);
  dns::name_from_wire(rdata_of(rr), off, name);
  return name;
}

uint32_t soa_negative_ttl(const Rr& soa) {
  uint32_t minimum = load32(soa.rdata.data() + soa.rdata.size() - 4);
  return std::min(soa.ttl, minimum);
}

bool write_rr(dns::Writer& w, dns::Section section, const Name& owner, const Rr& rr, uint32_t ttl) {
  Bytes rdata = rdata_of(rr);
  switch (rr.type) {
    case dns::kTypeCNAME:
    case dns::kTypeNS:
    case dns::kTypePTR:
    case dns::kTypeMX:
    case dns::kTypeSRV:
      return w.begin_record(section, owner, rr.type, ttl) &&
             w.rdata_bytes(Bytes{rdata.data, name_offset(rr.type)}) &&
             w.rdata_name(rr_target(rr)) && w.end_record();
    case dns::kTypeSOA: {
      Name mname, rname;
      size_t off = 0;
      dns::name_from_wire(rdata, off, mname);
      dns::name_from_wire(rdata, off, rname);
      return w.begin_record(section, owner, rr.type, ttl) && w.rdata_name(mname) &&
             w.rdata_name(rname) && w.rdata_bytes(Bytes{rdata.data + off, rdata.size - off}) &&
             w.end_record();
    }
    default:
      return w.record(section, owner, rr.type, ttl, rdata);
  }
}

}  // namespace rk8s::server
