// EDNS0 (RFC 6891): the OPT record and its options.
#include "dns/wire.h"

namespace rk8s::dns {

// The option at `pos`, moving `pos` past it. False at the end of the rdata
// and when the option runs past it (then `pos` stops short of the end).
static bool next_option(Bytes options, size_t& pos, uint16_t& code, Bytes& value) {
  if (options.size - pos < 4) return false;
  const uint8_t* p = options.data + pos;
  size_t len = load16(p + 2);
  if (options.size - pos - 4 < len) return false;
  code = load16(p);
  value = Bytes{p + 4, len};
  pos += 4 + len;
  return true;
}

bool edns_from_record(const Reader& reader, const Record& r, Edns& out) {
  if (r.type != kTypeOPT || r.section != kAdditional || r.name.len != 1) return false;
  Bytes rdata = reader.rdata(r);
  size_t pos = 0;
  uint16_t code;
  Bytes value;
  while (next_option(rdata, pos, code, value)) {
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
  uint16_t c;
  Bytes v;
  while (next_option(options, pos, c, v)) {
    if (c == code) {
      value = v;
      return true;
    }
  }
  return false;
}

}  // namespace rk8s::dns
