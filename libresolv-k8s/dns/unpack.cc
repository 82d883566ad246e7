// SPDX-License-Identifier: Apache-2.0
// Names off the wire: uncompressed, or decompressed inside a message.
#include "dns/wire.h"

namespace rk8s::dns {

// Labels from `off`, ended by the root or, when `pointers`, a compression
// pointer to anywhere in the message: glibc's ns_name_unpack and musl's
// dn_expand follow one forwards too. A loop is caught as glibc catches it:
// the bytes read, each label's and two a pointer, reach the message's
// length (a name that does not loop reads each byte once at most).
static bool unpack(const uint8_t* msg, size_t len, size_t& off, Name& out, bool pointers) {
  Name name;
  size_t n = 0;
  size_t pos = off;
  size_t resume = 0;  // past the first pointer, once there is one
  size_t checked = 0;
  for (;;) {
    if (pos >= len) return false;
    uint8_t b = msg[pos];
    if (b == 0) break;
    if ((b & 0xc0) == 0xc0) {
      if (!pointers || len - pos < 2) return false;
      size_t target = size_t(b & 0x3f) << 8 | msg[pos + 1];
      checked += 2;
      if (target >= len || checked >= len) return false;
      if (resume == 0) resume = pos + 2;
      pos = target;
      continue;
    }
    if (b > 63) return false;  // 0x40 and 0x80 label types: none in use
    if (len - pos < size_t(b) + 1 || n + b + 2 > kMaxName) return false;
    checked += b + 1;
    memcpy(name.wire + n, msg + pos, b + 1);
    n += b + 1;
    pos += b + 1;
  }
  name.wire[n++] = 0;
  name.len = uint8_t(n);
  out = name;
  off = resume ? resume : pos + 1;
  return true;
}

bool name_from_wire(Bytes in, size_t& off, Name& out) {
  return unpack(in.data, in.size, off, out, false);
}

bool Reader::name_at(size_t& off, Name& out) const { return unpack(msg_, len_, off, out, true); }

}  // namespace rk8s::dns
