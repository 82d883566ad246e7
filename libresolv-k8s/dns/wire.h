// SPDX-License-Identifier: Apache-2.0
// The DNS wire codec (RFC 1035, RFC 6891), one for the client and the server.
//
// Reading: every access is bounds-checked; a compression pointer may point
// anywhere in the message, as the libcs follow it, and a loop is refused
// (unpack.cc), so a name can neither loop nor leave the message.
// Writing: names are compressed against the names already written; a record
// that does not fit is rolled back whole and the message marked truncated.
#pragma once

#include "util/base.h"

namespace rk8s::dns {

constexpr size_t kMaxName = 255;   // wire bytes, root label included
constexpr size_t kHeaderSize = 12;
// Presentation text of the longest name, every byte escaped, final dot, NUL.
constexpr size_t kMaxNameText = 4 * kMaxName + 2;
// The EDNS0 UDP size both our sides advertise (DNS Flag Day 2020): no
// fragmentation on any common path.
constexpr uint16_t kEdnsUdpSize = 1232;

enum Type : uint16_t {
  kTypeA = 1,
  kTypeNS = 2,
  kTypeCNAME = 5,
  kTypeSOA = 6,
  kTypePTR = 12,
  kTypeMX = 15,
  kTypeTXT = 16,
  kTypeAAAA = 28,
  kTypeSRV = 33,
  kTypeOPT = 41,
  kTypeANY = 255,
};
constexpr uint16_t kClassIN = 1;

enum Rcode : uint8_t {
  kNoError = 0,
  kFormErr = 1,
  kServFail = 2,
  kNxDomain = 3,
  kNotImp = 4,
  kRefused = 5,
  kBadVers = 16,  // EDNS: in the OPT record's extended rcode
};

enum Section : uint8_t { kAnswer, kAuthority, kAdditional };

// Header flags word.
constexpr uint16_t kFlagQR = 0x8000;
constexpr uint16_t kFlagAA = 0x0400;
constexpr uint16_t kFlagTC = 0x0200;
constexpr uint16_t kFlagRD = 0x0100;
constexpr uint16_t kFlagRA = 0x0080;
constexpr uint16_t kFlagAD = 0x0020;
constexpr uint16_t kFlagCD = 0x0010;
constexpr uint16_t kOpcodeMask = 0x7800;
constexpr uint16_t kRcodeMask = 0x000f;

// A domain name in uncompressed wire form: labels, then the root label.
// Only the `len` bytes in use are ever written or read: a Name costs
// nothing to create, however many a lookup holds (the option's 64
// suffixes, a CNAME chain).
struct Name {
  uint8_t len = 1;  // bytes of `wire` in use; 1 = the root name
  uint8_t wire[kMaxName];
  constexpr Name() { wire[0] = 0; }
};

// "www.example.com", "www.example.com." and "." all parse; \. \\ and \DDD
// escapes are understood. False when a label is empty or over 63 bytes, or
// the name is over 255 wire bytes.
bool name_from_text(Str text, Name& out);
// Presentation form ("." for the root), escaped as glibc's ns_name_ntop
// does: \DDD for bytes outside 0x21..0x7e, a backslash before . \ " ; ( )
// @ $. Without the final dot, as glibc prints names, unless `final_dot`
// (as dig does). Always NUL-terminates when cap > 0; returns the length it
// needed, as snprintf does.
size_t name_to_text(const Name& name, char* out, size_t cap, bool final_dot = false);
// ASCII case-insensitive, label by label.
bool name_equal(const Name& a, const Name& b);
bool name_ends_with(const Name& name, const Name& suffix);
// `base` without its root label, then `suffix`. False over 255 bytes.
bool name_concat(const Name& base, const Name& suffix, Name& out);
// The labels of `name` before `suffix`, as a root-terminated name.
// False when `suffix` is not a suffix of `name`.
bool name_strip_suffix(const Name& name, const Name& suffix, Name& base);
size_t name_label_count(const Name& name);
// An uncompressed name at `off` in `in` (compression pointers refused);
// moves `off` past it.
bool name_from_wire(Bytes in, size_t& off, Name& out);

struct Header {
  uint16_t id = 0;
  uint16_t flags = 0;
  uint16_t qdcount = 0;
  uint16_t ancount = 0;
  uint16_t nscount = 0;
  uint16_t arcount = 0;

  uint8_t rcode() const { return uint8_t(flags & kRcodeMask); }
  bool qr() const { return flags & kFlagQR; }
  bool tc() const { return flags & kFlagTC; }
};

struct Question {
  Name name;
  uint16_t type = 0;
  uint16_t klass = kClassIN;
};

struct Record {
  Name name;
  uint16_t type = 0;
  uint16_t klass = 0;
  uint32_t ttl = 0;
  Section section = kAnswer;
  size_t rdata_off = 0;  // offset of the rdata in the message
  uint16_t rdlength = 0;
};

// Reads a message front to back: header(), then question() qdcount times,
// then record() until it returns false (end of the additional section, or
// malformed: ok() tells which).
class Reader {
 public:
  Reader(const uint8_t* msg, size_t len) : msg_(msg), len_(len) {}

  bool header(Header& out);
  bool question(Question& out);
  bool record(Record& out);
  // False once anything was malformed.
  bool ok() const { return ok_; }

  // Decompresses the name at `off` (inside rdata, say) and moves `off` past it.
  bool name_at(size_t& off, Name& out) const;
  Bytes rdata(const Record& r) const { return Bytes{msg_ + r.rdata_off, r.rdlength}; }
  const uint8_t* message() const { return msg_; }
  size_t size() const { return len_; }

 private:
  const uint8_t* msg_;
  size_t len_;
  size_t pos_ = 0;
  Header hdr_;
  uint32_t questions_left_ = 0;
  uint32_t records_read_ = 0;
  bool ok_ = true;
};

// EDNS0: the fields of an OPT record.
struct Edns {
  uint16_t udp_size = 0;
  uint8_t ext_rcode = 0;
  uint8_t version = 0;
  uint16_t flags = 0;  // DO is 0x8000
  Bytes options;       // the OPT rdata: code, length, value, ...
};

// False unless `r` is a well-formed OPT record (root owner, options that
// add up to its rdata exactly).
bool edns_from_record(const Reader& reader, const Record& r, Edns& out);
// The value of the first option with `code`. False when there is none.
bool edns_option(Bytes options, uint16_t code, Bytes& value);

// An EDNS option, as read from an OPT record or to put in one.
struct EdnsOption {
  uint16_t code = 0;
  Bytes value;
};
// The option at `pos` in an OPT record's rdata, moving `pos` past it. False
// at the end, and when the option runs past it (`pos` then stops short of
// the end).
bool edns_next_option(Bytes options, size_t& pos, EdnsOption& out);

// Mnemonics (mnemonics.cc): "A", "NOERROR"; nullptr, or 0 and -1, for codes
// without one. Mnemonics are read in any case.
const char* type_name(uint16_t type);
uint16_t type_from_name(Str name);
const char* rcode_name(uint8_t rcode);
int rcode_from_name(Str name);

// Builds a message into a caller's buffer (at most 65535 bytes of it).
// Counts in the header follow the records written; sections go in order
// (a question after a record, or an answer after an authority record, is
// refused). A record that does not fit is rolled back whole; the writer is
// then full(): TC is set and stays set, and later questions and records are
// refused, except opt(), which may still use the room reserve() kept back.
class Writer {
 public:
  Writer(uint8_t* buf, size_t cap);

  void header(uint16_t id, uint16_t flags);
  void set_rcode(uint8_t rcode);
  void set_flags(uint16_t flags);  // replaces the whole flags word
  // Keep `n` bytes back from everything written until release(n) (room
  // for the OPT record a reply must still carry).
  void reserve(size_t n);
  void release(size_t n);

  bool question(const Name& name, uint16_t type, uint16_t klass = kClassIN);
  // A record whose rdata holds no names (A, AAAA, TXT, ...).
  bool record(Section s, const Name& owner, uint16_t type, uint32_t ttl, Bytes rdata,
              uint16_t klass = kClassIN);
  // A record whose rdata holds names (CNAME, NS, PTR, SOA, MX, SRV): begin,
  // then rdata_name()/rdata_bytes() in order, then end.
  bool begin_record(Section s, const Name& owner, uint16_t type, uint32_t ttl,
                    uint16_t klass = kClassIN);
  bool rdata_name(const Name& name);  // compressed (RFC 3597: only for the types above)
  bool rdata_bytes(Bytes b);
  bool end_record();
  bool opt(uint16_t udp_size, uint8_t ext_rcode, uint16_t flags, const EdnsOption* options,
           size_t count);

  size_t size() const { return len_; }
  bool full() const { return full_; }

 private:
  bool put(const void* p, size_t n);
  bool put_name(const Name& name, bool compress);
  bool start_record(Section s, const Name& owner, uint16_t type, uint32_t ttl, uint16_t klass);
  bool counts_zero_after(size_t index) const;
  void bump(size_t index);
  void fail_record();

  uint8_t* buf_;
  size_t cap_;
  size_t limit_;
  size_t len_ = 0;
  size_t record_start_ = 0;
  size_t rdlength_at_ = 0;
  Section record_section_ = kAnswer;
  bool in_record_ = false;
  bool full_ = false;
  // Where names (and their suffixes) were written, for compression.
  FixedVec<uint16_t, 128> name_offsets_;
};

// Rdata holding names a server may have compressed (RFC 3597 section 4,
// but for SIG, NXT and NAPTR): `fixed` bytes, `names` names, then exactly
// `tail` bytes. False for any other type, whose rdata is opaque.
struct RdataNames {
  uint8_t fixed, names, tail;
};
bool rdata_names(uint16_t type, RdataNames& out);

// The rdata of `rec` in order, its names expanded: `bytes(Bytes)` for the
// bytes around them, `name(const Name&)` for each name. False when the
// rdata does not hold exactly its fields, or a call returns false.
template <class OnBytes, class OnName>
bool read_rdata(const Reader& reader, const Record& rec, OnBytes bytes, OnName name) {
  RdataNames layout;
  if (!rdata_names(rec.type, layout)) return bytes(reader.rdata(rec));
  const uint8_t* msg = reader.message();
  size_t off = rec.rdata_off, end = rec.rdata_off + rec.rdlength;
  if (rec.rdlength < layout.fixed || !bytes(Bytes{msg + off, layout.fixed})) return false;
  off += layout.fixed;
  for (int i = 0; i < layout.names; i++) {
    Name n;
    if (!reader.name_at(off, n) || !name(n)) return false;
  }
  // off > end: a name ran on into the next record.
  return off <= end && end - off == layout.tail && bytes(Bytes{msg + off, layout.tail});
}

// Record `rec` of `reader`'s message written to `w`, in its own section,
// every name expanded for `w` to compress anew. False when its rdata does
// not hold exactly its fields, or it does not fit.
bool copy_record(const Reader& reader, const Record& rec, Writer& w);

// A standard recursive query: RD, one question, and an OPT record when
// `edns_udp_size` is non-zero (carrying `count` `options`).
struct Query {
  uint16_t id;
  const Name& qname;
  uint16_t qtype;
  uint16_t edns_udp_size = 0;
  const EdnsOption* options = nullptr;
  size_t count = 0;
};
// `q` written to `buf`: its length, or 0 when it does not fit `cap`.
size_t build_query(const Query& q, uint8_t* buf, size_t cap);

}  // namespace rk8s::dns
