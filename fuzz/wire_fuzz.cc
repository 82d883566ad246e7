// Any bytes as a DNS message: parse everything, write what parsed back
// through the Writer, and read that back: it must say the same.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vector>

#include "dns/wire.h"

using namespace rk8s;
using namespace rk8s::dns;

namespace {

// Where the names sit in rdata: fixed bytes before, names, fixed bytes after.
struct Layout {
  uint16_t type;
  size_t lead, names, trail;
};
constexpr Layout kLayouts[] = {
    {kTypeNS, 0, 1, 0}, {kTypeCNAME, 0, 1, 0}, {kTypePTR, 0, 1, 0},
    {kTypeMX, 2, 1, 0}, {kTypeSRV, 6, 1, 0},   {kTypeSOA, 0, 2, 20},
};

struct Rdata {
  const Layout* layout = nullptr;  // null: raw bytes
  Name names[2];
};

Rdata parse_rdata(const Reader& r, const Record& rec) {
  Rdata out;
  for (const Layout& l : kLayouts) {
    if (l.type != rec.type || rec.rdlength < l.lead) continue;
    size_t off = rec.rdata_off + l.lead, end = rec.rdata_off + rec.rdlength;
    for (size_t i = 0; i < l.names; i++)
      if (!r.name_at(off, out.names[i]) || off > end) return out;
    if (end - off == l.trail) out.layout = &l;
  }
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
  if (!rd.layout)
    return w.record(rec.section, rec.name, rec.type, rec.ttl, r.rdata(rec), rec.klass);
  const uint8_t* p = r.message() + rec.rdata_off;
  if (!w.begin_record(rec.section, rec.name, rec.type, rec.ttl, rec.klass) ||
      !w.rdata_bytes(Bytes{p, rd.layout->lead}))
    return false;
  for (size_t i = 0; i < rd.layout->names; i++)
    if (!w.rdata_name(rd.names[i])) return false;
  return w.rdata_bytes(Bytes{p + rec.rdlength - rd.layout->trail, rd.layout->trail}) &&
         w.end_record();
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
  if (!da.layout) {
    check(same_bytes(ra.rdata(a), rb.rdata(b)));
    return;
  }
  check(db.layout == da.layout);
  const Layout& l = *da.layout;
  for (size_t i = 0; i < l.names; i++) check(name_equal(da.names[i], db.names[i]));
  check(same_bytes(Bytes{ra.message() + a.rdata_off, l.lead},
                   Bytes{rb.message() + b.rdata_off, l.lead}));
  check(same_bytes(Bytes{ra.message() + a.rdata_off + a.rdlength - l.trail, l.trail},
                   Bytes{rb.message() + b.rdata_off + b.rdlength - l.trail, l.trail}));
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
  return 0;
}
