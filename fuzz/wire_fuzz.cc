// SPDX-License-Identifier: Apache-2.0
// Any bytes as a DNS message: parse everything, write what parsed back
// through the Writer, and read that back: it must say the same. As an
// autopath reply made into a candidate's own, too.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vector>

#include "dns/candidate_reply.h"
#include "util/text.h"

using namespace rk8s;
using namespace rk8s::dns;

namespace {

// Rdata in parts, names expanded (read_rdata); `whole` when it read as its
// type's fields, else it is copied as raw bytes.
struct Rdata {
  bool whole = false;
  std::vector<Name> names;
  std::vector<std::vector<uint8_t>> bytes;
};

Rdata parse_rdata(const Reader& r, const Record& rec) {
  Rdata out;
  out.whole = read_rdata(
      r, rec,
      [&](Bytes b) {
        out.bytes.emplace_back(b.data, b.data + b.size);
        return true;
      },
      [&](const Name& n) {
        out.names.push_back(n);
        return true;
      });
  return out;
}

struct Message {
  Header header;
  std::vector<Question> questions;
  std::vector<Record> records;
  std::vector<Rdata> rdata;
};

Message parse(Reader& r) {
  Message m;
  if (!r.header(m.header)) return m;
  Question q;
  while (r.question(q)) m.questions.push_back(q);
  Record rec;
  while (r.record(rec)) {
    m.records.push_back(rec);
    m.rdata.push_back(parse_rdata(r, rec));
    Edns e;
    Bytes v;
    if (edns_from_record(r, rec, e)) edns_option(e.options, 65431, v);
  }
  return m;
}

// Every option of a well-formed OPT record.
std::vector<EdnsOption> options_of(Bytes rdata) {
  std::vector<EdnsOption> out;
  for (size_t pos = 0; pos < rdata.size; pos += 4 + out.back().value.size)
    out.push_back(
        {load16(rdata.data + pos), Bytes{rdata.data + pos + 4, load16(rdata.data + pos + 2)}});
  return out;
}

bool write_record(Writer& w, const Reader& r, const Record& rec, const Rdata& rd) {
  Edns e;
  if (edns_from_record(r, rec, e) && e.version == 0) {
    std::vector<EdnsOption> opts = options_of(e.options);
    return w.opt(e.udp_size, e.ext_rcode, e.flags, opts.data(), opts.size());
  }
  if (!rd.whole) return w.record(rec.section, rec.name, rec.type, rec.ttl, r.rdata(rec), rec.klass);
  return copy_record(r, rec, w);
}

void check(bool ok) {
  if (!ok) abort();
}

bool same_bytes(Bytes a, Bytes b) {
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

void check_same(const Reader& ra, const Record& a, const Rdata& da, const Reader& rb,
                const Record& b, const Rdata& db) {
  check(name_equal(a.name, b.name) && a.type == b.type && a.klass == b.klass && a.ttl == b.ttl &&
        a.section == b.section);
  // Raw rdata is copied as is, so its pointers may now happen to parse.
  if (!da.whole) {
    check(same_bytes(ra.rdata(a), rb.rdata(b)));
    return;
  }
  check(db.whole && da.names.size() == db.names.size() && da.bytes == db.bytes);
  for (size_t i = 0; i < da.names.size(); i++) check(name_equal(da.names[i], db.names[i]));
}

// The autopath reply made into a candidate's own: its question is the
// candidate, and every record but the dropped first one reads the same.
void check_candidate_reply(const Reader& in, const Message& m, Bytes msg) {
  static uint8_t out[65535];
  static const Name candidate = [] {
    Name n;
    name_from_text(str("web.s2.svc.cluster.local"), n);
    return n;
  }();
  bool synthesized = m.records.size() % 2;
  size_t n = autopath::candidate_reply({msg, candidate, synthesized, 65431}, true, out, sizeof out);
  if (n == 0) return;
  Reader back(out, n);
  Message c = parse(back);
  check(back.ok() && c.questions.size() == 1 && name_equal(c.questions[0].name, candidate));
  size_t i = synthesized, j = 0;
  for (;; i++, j++) {
    while (i < m.records.size() && m.records[i].type == kTypeOPT) i++;
    while (j < c.records.size() && c.records[j].type == kTypeOPT) j++;
    if (i == m.records.size() || j == c.records.size()) break;
    check_same(in, m.records[i], m.rdata[i], back, c.records[j], c.rdata[j]);
  }
  check(i == m.records.size() && j == c.records.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in(data, size);
  Message m = parse(in);
  if (m.questions.size() + m.records.size() == 0) return 0;

  static uint8_t buf[65535];
  Writer w(buf, sizeof buf);
  w.header(m.header.id, m.header.flags);
  size_t questions = 0, records = 0;
  for (const Question& q : m.questions) {
    if (!w.question(q.name, q.type, q.klass)) break;
    questions++;
  }
  for (size_t i = 0; questions == m.questions.size() && i < m.records.size(); i++) {
    if (!write_record(w, in, m.records[i], m.rdata[i])) break;
    records++;
  }
  check(questions + records == m.questions.size() + m.records.size() || w.full());

  Reader back(buf, w.size());
  Message n = parse(back);
  check(back.ok() && n.questions.size() == questions && n.records.size() == records);
  check(!w.full() || n.header.tc());
  for (size_t i = 0; i < questions; i++)
    check(name_equal(m.questions[i].name, n.questions[i].name) &&
          m.questions[i].type == n.questions[i].type &&
          m.questions[i].klass == n.questions[i].klass);
  for (size_t i = 0; i < records; i++)
    check_same(in, m.records[i], m.rdata[i], back, n.records[i], n.rdata[i]);
  if (m.questions.size() == 1 && in.ok()) check_candidate_reply(in, m, Bytes{data, size});
  return 0;
}
