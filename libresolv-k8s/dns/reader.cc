// SPDX-License-Identifier: Apache-2.0
// Reading a message front to back: header, questions, records.
#include "dns/wire.h"

namespace rk8s::dns {

bool Reader::header(Header& out) {
  if (len_ < kHeaderSize) return ok_ = false;
  const uint8_t* p = msg_;
  hdr_ =
      Header{load16(p), load16(p + 2), load16(p + 4), load16(p + 6), load16(p + 8), load16(p + 10)};
  questions_left_ = hdr_.qdcount;
  pos_ = kHeaderSize;
  out = hdr_;
  return true;
}

bool Reader::question(Question& out) {
  if (!ok_ || questions_left_ == 0) return false;
  size_t off = pos_;
  if (!name_at(off, out.name) || len_ - off < 4) return ok_ = false;
  out.type = load16(msg_ + off);
  out.klass = load16(msg_ + off + 2);
  pos_ = off + 4;
  questions_left_--;
  return true;
}

bool Reader::record(Record& out) {
  Question skipped;
  while (questions_left_ > 0)
    if (!question(skipped)) return false;
  uint32_t answers = hdr_.ancount, authority = answers + hdr_.nscount;
  if (!ok_ || records_read_ == authority + hdr_.arcount) return false;
  size_t off = pos_;
  if (!name_at(off, out.name) || len_ - off < 10) return ok_ = false;
  const uint8_t* p = msg_ + off;
  uint16_t rdlength = load16(p + 8);
  if (len_ - off - 10 < rdlength) return ok_ = false;
  out.type = load16(p);
  out.klass = load16(p + 2);
  out.ttl = load32(p + 4);
  out.section = records_read_ < answers     ? kAnswer
                : records_read_ < authority ? kAuthority
                                            : kAdditional;
  out.rdata_off = off + 10;
  out.rdlength = rdlength;
  pos_ = off + 10 + rdlength;
  records_read_++;
  return true;
}

}  // namespace rk8s::dns
