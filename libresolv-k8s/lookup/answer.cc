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

bool read_answer(Dialect dialect, bool in_class_only, Bytes msg, const dns::Name& qname,
                 uint16_t qtype, uint16_t option_code, const autopath::QueryOption* sent,
                 Answer& out) {
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
  // musl takes every address record of the answer section and the last
  // valid CNAME target as the canonical name.
  FixedVec<dns::Name, kMaxChain> chain;
  chain.push(q.name);
  dns::Name expected = q.name;
  dns::Name alias = q.name;
  // glibc reads no address at all for a question name that is no host name.
  bool qname_ok = dialect == Dialect::musl || glibc_hostname_ok(q.name);
  bool alias_ok = dialect == Dialect::glibc && qname_ok;
  size_t address_cap = dialect == Dialect::musl ? kMuslMaxAddresses : kMaxAddresses;
  // musl's __dns_parse reads no record of a reply that is not NOERROR or
  // counts more than 64 questions and answers.
  bool parse_answers =
      dialect == Dialect::glibc || (out.rcode == dns::kNoError && h.qdcount + h.ancount <= 64);
  if (dialect == Dialect::glibc) out.aliases.add(q.name, qname_ok);

  dns::Record r;
  size_t answers = 0;
  while (reader.record(r)) {
    Bytes rdata = reader.rdata(r);
    if (r.section == dns::kAnswer) answers++;
    // musl's __dns_parse hands on a type's low byte only, and stops at an
    // address of the wrong size.
    uint16_t type = dialect == Dialect::musl ? r.type & 0xff : r.type;
    if (dialect == Dialect::musl && r.section == dns::kAnswer &&
        ((type == dns::kTypeA && rdata.size != 4) || (type == dns::kTypeAAAA && rdata.size != 16)))
      parse_answers = false;
    if (r.section == dns::kAnswer && parse_answers) {
      if (in_class_only && r.klass != dns::kClassIN) continue;
      if (type == dns::kTypeCNAME) {
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
        bool ok = dialect == Dialect::glibc ? glibc_hostname_ok(target) : musl_hostname_ok(target);
        if (dialect == Dialect::glibc) out.aliases.add(target, ok);
        if (ok) alias = target, alias_ok = true;
        continue;
      }
      IpAddr a;
      bool wanted = dialect == Dialect::musl ||
                    (qname_ok && r.type == qtype && dns::name_equal(r.name, expected));
      if (!wanted || !address_of(type, rdata, a)) continue;
      if (out.addrs.count == address_cap) {
        out.overflow = dialect == Dialect::glibc;
        continue;
      }
      if (dialect == Dialect::glibc && out.addrs.count == 0 && alias_ok)
        out.canon = alias, out.has_canon = true;
      out.addrs.push(a);
    } else if (r.section == dns::kAdditional) {
      dns::Edns edns;
      Bytes value;
      if (r.type == dns::kTypeOPT && sent && dns::edns_from_record(reader, r, edns) &&
          dns::edns_option(edns.options, option_code, value))
        out.has_option = autopath::decode_reply(value, *sent, out.option);
      IpAddr a;
      if (r.type == dns::kTypeAAAA && in_chain(chain, r.name) && address_of(r.type, rdata, a))
        out.both_aaaa.push(a);
    }
  }
  if (!reader.ok() && answers < h.ancount) out.bad_answers = true;
  // musl: the last valid CNAME target. glibc without addresses: where the
  // chain ended (a BOTH reply's AAAA records sit there).
  if (alias_ok && (dialect == Dialect::musl || out.addrs.count == 0))
    out.canon = alias, out.has_canon = true;
  return true;
}

}  // namespace rk8s
