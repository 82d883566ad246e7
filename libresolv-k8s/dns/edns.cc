// SPDX-License-Identifier: Apache-2.0
// EDNS0 (RFC 6891): the OPT record and its options.
#include "dns/wire.h"

namespace rk8s::dns {

bool edns_next_option(Bytes options, size_t& pos, EdnsOption& out) {
  if (options.size - pos < 4) return false;
  const uint8_t* p = options.data + pos;
  size_t len = load16(p + 2);
  if (options.size - pos - 4 < len) return false;
  out = EdnsOption{load16(p), Bytes{p + 4, len}};
  pos += 4 + len;
  return true;
}

bool edns_from_record(const Reader& reader, const Record& r, Edns& out) {
  if (r.type != kTypeOPT || r.section != kAdditional || r.name.len != 1) return false;
  Bytes rdata = reader.rdata(r);
  size_t pos = 0;
  EdnsOption o;
  while (edns_next_option(rdata, pos, o)) {
  }
  if (pos != rdata.size) return false;
  out.udp_size = r.klass;
  out.ext_rcode = uint8_t(r.ttl >> 24);
  out.version = uint8_t(r.ttl >> 16);
  out.flags = uint16_t(r.ttl);
  out.options = rdata;
  return true;
}

bool edns_option(Bytes options, uint16_t code, Bytes& value) {
  size_t pos = 0;
  EdnsOption o;
  while (edns_next_option(options, pos, o)) {
    if (o.code == code) {
      value = o.value;
      return true;
    }
  }
  return false;
}

}  // namespace rk8s::dns
