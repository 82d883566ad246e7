// SPDX-License-Identifier: Apache-2.0
// Records copied from one message into another: the names inside rdata.
#include "dns/wire.h"

namespace rk8s::dns {

// RFC 1035's types that early servers compressed, beyond wire.h's.
enum : uint16_t {
  kTypeMD = 3, kTypeMF = 4, kTypeMB = 7, kTypeMG = 8, kTypeMR = 9, kTypeMINFO = 14,
  kTypeRP = 17, kTypeAFSDB = 18, kTypeRT = 21, kTypePX = 26,
};

bool rdata_names(uint16_t type, RdataNames& out) {
  switch (type) {
    case kTypeNS: case kTypeMD: case kTypeMF: case kTypeCNAME: case kTypeMB:
    case kTypeMG: case kTypeMR: case kTypePTR:
      out = RdataNames{0, 1, 0}; return true;
    case kTypeSOA: out = RdataNames{0, 2, 20}; return true;
    case kTypeMINFO: case kTypeRP: out = RdataNames{0, 2, 0}; return true;
    case kTypeMX: case kTypeAFSDB: case kTypeRT: out = RdataNames{2, 1, 0}; return true;
    case kTypePX: out = RdataNames{2, 2, 0}; return true;
    case kTypeSRV: out = RdataNames{6, 1, 0}; return true;
    default: return false;
  }
}

bool copy_record(const Reader& reader, const Record& rec, Writer& w) {
  return w.begin_record(rec.section, rec.name, rec.type, rec.ttl, rec.klass) &&
         read_rdata(
             reader, rec, [&](Bytes b) { return w.rdata_bytes(b); },
             [&](const Name& n) { return w.rdata_name(n); }) &&
         w.end_record();
}

}  // namespace rk8s::dns
