// SPDX-License-Identifier: Apache-2.0
#include "lookup/answer.h"

#include <netinet/in.h>

namespace rk8s {
namespace {

constexpr size_t kMaxChain = 16;

// glibc's __res_binary_hnok: letters, digits, '-' and '_', no leading '-'.
bool glibc_hostname_ok(const dns::Name& n) {
  if (n.len > 1 && n.wire[1] == '-') return false;
  for (size_t i = 0; i + 1 < n.len;) {
    size_t end = i + 1 + n.wire[i];
    for (size_t j = i + 1; j < end && j < n.len; j++) {
      uint8_t c = n.wire[j];
      bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                c == '-' || c == '_';
      if (!ok) return false;
    }
    i = end;
  }
  return true;
}

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

bool address_of(uint16_t type, Bytes rdata, IpAddr& out) {
  if (type == dns::kTypeA && rdata.size == 4) {
    out.family = AF_INET;
  } else if (type == dns::kTypeAAAA && rdata.size == 16) {
    out.family = AF_INET6;
  } else {
    return false;
  }
  memcpy(out.addr, rdata.data, rdata.size);
  return true;
}

bool in_chain(const FixedVec<dns::Name, kMaxChain>& chain, const dns::Name& n) {
  for (const dns::Name& c : chain)
    if (dns::name_equal(c, n)) return true;
  return false;
}

}  // namespace

void AliasNames::add(const dns::Name& n, bool is_host_name) {
  size_t start = at.count ? at[at.count - 1] + strlen(text + at[at.count - 1]) + 1 : 0;
  char buf[dns::kMaxNameText];
  size_t len = dns::name_to_text(n, buf, sizeof buf);
  if (at.full() || len >= sizeof buf || start + len + 1 > sizeof text) {
    overflow = true;
    return;
  }
  memcpy(text + start, buf, len + 1);
  if (is_host_name) host_name |= 1u << at.count;
  at.push(uint16_t(start));
}

void AliasNames::drop_first() {
  if (at.count == 0) return;
  for (size_t i = 1; i < at.count; i++) at[i - 1] = at[i];
  at.count--;
  host_name >>= 1;
}

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
    } else if (!address_of(type, Bytes{m + rdata, len}, a)) {
      return true;
    } else {
      out.addrs.push(a);
    }
  }
  return true;
}

bool read_answer(const Config& conf, bool in_class_only, Bytes msg, const dns::Name& qname,
                 uint16_t qtype, const autopath::QueryOption* sent, Answer& out) {
  out = Answer{};
  dns::Reader reader(msg.data, msg.size);
  dns::Header h;
  dns::Question q;
  if (!reader.header(h) || !h.qr() || h.qdcount != 1 || !reader.question(q)) return false;
  if (q.type != qtype || q.klass != dns::kClassIN || !dns::name_equal(q.name, qname)) return false;
  out.rcode = h.rcode();
  out.ancount = h.ancount;

  // glibc follows the chain from the question: a CNAME (whatever its owner)
  // moves the expected owner; addresses must sit at the expected owner.
  // musl reads the answer section its own way (read_musl_answers); here it
  // only follows the chain a BOTH reply's AAAA records hang from.
  bool glibc = conf.dialect == Dialect::glibc;
  FixedVec<dns::Name, kMaxChain> chain;
  chain.push(q.name);
  dns::Name expected = q.name;
  dns::Name alias = q.name;
  // glibc reads no address at all for a question name that is no host name.
  bool qname_ok = glibc_hostname_ok(q.name);
  bool alias_ok = qname_ok;
  if (glibc) out.aliases.add(q.name, qname_ok);

  dns::Record r;
  size_t answers = 0;
  while (reader.record(r)) {
    Bytes rdata = reader.rdata(r);
    if (r.section == dns::kAnswer) {
      answers++;
      if (in_class_only && r.klass != dns::kClassIN) continue;
      if (r.type == dns::kTypeCNAME) {
        size_t off = r.rdata_off;
        dns::Name target;
        if (!reader.name_at(off, target)) {
          out.bad_answers = true;
          break;
        }
        if (answers == 1 && dns::name_equal(r.name, q.name))
          out.qname_cname = target, out.has_qname_cname = true;
        expected = target;
        chain.push(target);
        if (!glibc) continue;
        bool ok = glibc_hostname_ok(target);
        out.aliases.add(target, ok);
        if (ok) alias = target, alias_ok = true;
        continue;
      }
      IpAddr a;
      if (!glibc || !qname_ok || r.type != qtype || !dns::name_equal(r.name, expected) ||
          !address_of(r.type, rdata, a))
        continue;
      if (out.addrs.count == kMaxAddresses) {
        out.overflow = true;
        continue;
      }
      if (out.addrs.count == 0 && alias_ok) out.canon = alias, out.has_canon = true;
      out.addrs.push(a);
    } else if (r.section == dns::kAdditional) {
      dns::Edns edns;
      Bytes value;
      if (r.type == dns::kTypeOPT && sent && dns::edns_from_record(reader, r, edns) &&
          dns::edns_option(edns.options, conf.opt.autopath_code, value))
        out.has_option = autopath::decode_reply(value, *sent, out.option);
      IpAddr a;
      if (r.type == dns::kTypeAAAA && in_chain(chain, r.name) && address_of(r.type, rdata, a))
        out.both_aaaa.push(a);
    }
  }
  if (!glibc) {
    read_musl_answers(msg, qtype, conf.release, out);
    return true;
  }
  if (!reader.ok() && answers < h.ancount) out.bad_answers = true;
  // Without addresses, where the chain ended (a BOTH reply's AAAA records
  // sit there).
  if (alias_ok && out.addrs.count == 0) out.canon = alias, out.has_canon = true;
  return true;
}

}  // namespace rk8s
