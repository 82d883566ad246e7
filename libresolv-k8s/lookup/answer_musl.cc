// SPDX-License-Identifier: Apache-2.0
#include "lookup/answer_musl.h"

#include <netinet/in.h>

#include "util/release.h"

namespace rk8s {
namespace {

// musl's dn_expand of the name at `src` in `msg`: a byte with either high
// bit set is a pointer (0x40 and 0x80 too), a label must end before the
// message does, and the text holds 254 bytes at most; a loop ends after as
// many steps as the message has byte pairs. False where musl fails, or the
// name is longer than a Name holds.
bool musl_dn_expand(const uint8_t* msg, size_t size, size_t src, dns::Name& out) {
  size_t p = src, text = 0, at = 0;
  if (p >= size) return false;
  for (size_t i = 0; i < size; i += 2) {
    if (msg[p] & 0xc0) {
      if (p + 1 == size) return false;
      p = size_t(msg[p] & 0x3f) << 8 | msg[p + 1];
      if (p >= size) return false;
    } else if (msg[p]) {
      text += text != 0;
      size_t n = msg[p++];
      if (n >= size - p || n >= 254 - text || at + n + 2 > dns::kMaxName) return false;
      out.wire[at] = uint8_t(n);
      memcpy(out.wire + at + 1, msg + p, n);
      at += n + 1, p += n, text += n;
    } else {
      out.wire[at] = 0;
      out.len = uint8_t(at + 1);
      return true;
    }
  }
  return false;
}

// musl's dn_expand writes a C string: a label's NUL byte ends the name
// there, the label cut at it. When nothing of it is left, the dot written
// before it stays ("api." of api.\0x): here the last byte of the label
// before, so that the labels joined by dots (addrinfo.cc's canon_text) are
// musl's text.
dns::Name cut_at_nul(const dns::Name& n) {
  dns::Name out;
  size_t at = 0, last = 0;
  for (size_t p = 0; n.wire[p]; p += n.wire[p] + 1) {
    const uint8_t* label = n.wire + p + 1;
    const void* nul = memchr(label, 0, n.wire[p]);
    size_t len = nul ? size_t(static_cast<const uint8_t*>(nul) - label) : n.wire[p];
    if (len == 0) {
      if (at) out.wire[last]++, out.wire[at++] = '.';
      break;
    }
    last = at;
    out.wire[at] = uint8_t(len);
    memcpy(out.wire + at + 1, label, len);
    at += len + 1;
    if (nul) break;
  }
  out.wire[at] = 0;
  out.len = uint8_t(at + 1);
  return out;
}

// musl's is_valid_hostname on the expanded text: bytes >= 0x80, '.', '-'
// and alphanumerics.
bool musl_hostname_ok(const dns::Name& n) {
  for (size_t i = 0; i + 1 < n.len;) {
    size_t end = i + 1 + n.wire[i];
    for (size_t j = i + 1; j < end && j < n.len; j++) {
      uint8_t c = n.wire[j];
      bool ok = c >= 0x80 || c == '.' || c == '-' || (c >= '0' && c <= '9') ||
                (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (!ok) return false;
    }
    i = end;
  }
  return n.len > 1;
}

}  // namespace

// musl's __dns_parse with dns_parse_callback, release by release. Owner
// names are skipped by musl's rule, never read (bytes 1-127, then a
// terminator or a pointer's two bytes); a record's type is its low byte.
// Up to 1.2.4 a reply of more than 64 records is refused, and so is a
// pointer past offset 510 (8c086e76, 83b858f8). Up to 1.2.3 the 48th
// address or a record musl refuses ends the walk, and an address of either
// type counts; from 1.2.4 on only the question's type counts, bounds are
// exact, CNAMEs are read past the 48th address (41603c77, 0a7b4323,
// 12590c8b), and the reply is read as far as musl's buffer holds it: 768
// bytes, 4800 from 1.2.5 (8c408937, a4ecaf89).
bool read_musl_answers(Bytes msg, uint16_t qtype, uint32_t musl, Answer& out) {
  bool exact = musl >= release(1, 2, 4), unlimited = musl >= release(1, 2, 5);
  size_t buffer = unlimited ? 4800 : 768;
  const uint8_t* m = msg.data;
  size_t size = exact && msg.size > buffer ? buffer : msg.size;
  if (size < dns::kHeaderSize) return true;
  uint32_t qdcount = load16(m + 4), ancount = load16(m + 6);
  if ((m[3] & 15) || (!unlimited && qdcount + ancount > 64)) return true;
  size_t p = dns::kHeaderSize;
  for (uint32_t i = 0; i < qdcount + ancount; i++) {
    while (p < size && m[p] - 1u < 127) p++;
    size_t least = i >= qdcount && exact ? 12 : 6;
    if (p + least > size) return true;
    if (!unlimited && (m[p] > 193 || (m[p] == 193 && m[p + 1] == 255))) return true;
    p += m[p] ? 2 : 1;
    if (i < qdcount) {
      p += 4;
      continue;
    }
    if (p + 10 > size) return false;
    uint8_t type = m[p + 1];
    size_t rdata = p + 10, len = load16(m + p + 8);
    if ((exact ? rdata : p) + len > size) return true;  // before 1.2.4, 10 bytes short
    if (rdata + len > size) return false;
    p = rdata + len;
    if (!exact && out.addrs.count == kMuslMaxAddresses) return true;
    IpAddr a;
    if (type == dns::kTypeCNAME) {
      dns::Name target;
      if (musl_dn_expand(m, size, rdata, target) && musl_hostname_ok(target = cut_at_nul(target)))
        out.canon = target, out.has_canon = true;
    } else if (type != dns::kTypeA && type != dns::kTypeAAAA) {
      continue;
    } else if (exact && (type != (qtype & 0xff) || out.addrs.count == kMuslMaxAddresses)) {
      continue;
    } else if (len != (type == dns::kTypeA ? 4u : 16u)) {
      return true;  // dns_parse_callback's -1 ends the walk
    } else {
      a.family = type == dns::kTypeA ? AF_INET : AF_INET6;
      memcpy(a.addr, m + rdata, len);
      out.addrs.push(a);
    }
  }
  return true;
}

}  // namespace rk8s
