// SPDX-License-Identifier: Apache-2.0
#include "lookup/answer.h"

#include <netinet/in.h>

#include "lookup/answer_musl.h"

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

size_t AliasNames::used() const {
  return at.count ? at[at.count - 1] + strlen(text + at[at.count - 1]) + 1 : 0;
}

AliasNames& AliasNames::operator=(const AliasNames& o) {
  memmove(text, o.text, o.used());
  at = o.at;
  host_name = o.host_name;
  overflow = o.overflow;
  return *this;
}

void AliasNames::add(const dns::Name& n, bool is_host_name) {
  size_t start = used();
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

bool read_answer(const Config& conf, const SentQuery& asked, Bytes msg, Answer& out) {
  out = Answer{};
  dns::Reader reader(msg.data, msg.size);
  dns::Header h;
  dns::Question q;
  if (!reader.header(h) || !h.qr() || h.qdcount != 1 || !reader.question(q)) return false;
  if (q.type != asked.qtype || q.klass != dns::kClassIN || !dns::name_equal(q.name, asked.qname))
    return false;
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
      if (glibc && asked.alone && r.klass != dns::kClassIN) continue;
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
      if (!glibc || !qname_ok || r.type != asked.qtype || !dns::name_equal(r.name, expected) ||
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
      if (r.type == dns::kTypeOPT && asked.option && dns::edns_from_record(reader, r, edns) &&
          dns::edns_option(edns.options, conf.opt.autopath_code, value))
        out.has_option = autopath::decode_reply(value, *asked.option, out.option);
      IpAddr a;
      if (r.type == dns::kTypeAAAA && in_chain(chain, r.name) && address_of(r.type, rdata, a))
        out.both_aaaa.push(a);
    }
  }
  if (!glibc) {
    read_musl_answers(msg, asked.qtype, conf.release, out);
    return true;
  }
  if (!reader.ok() && answers < h.ancount) out.bad_answers = true;
  // Without addresses, where the chain ended (a BOTH reply's AAAA records
  // sit there).
  if (alias_ok && out.addrs.count == 0) out.canon = alias, out.has_canon = true;
  return true;
}

}  // namespace rk8s
