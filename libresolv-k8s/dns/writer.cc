// SPDX-License-Identifier: Apache-2.0
// Building a message: compression, truncation, counts that match the bytes.
#include "dns/wire.h"

namespace rk8s::dns {

// RFC 1035 types whose rdata names may be compressed (RFC 3597 section 4).
static bool compressible(uint16_t type) {
  return type == kTypeNS || type == kTypeCNAME || type == kTypeSOA || type == kTypePTR ||
         type == kTypeMX;
}

constexpr size_t kMaxMessage = 65535;
constexpr size_t kMaxPointerTarget = 0x3fff;

Writer::Writer(uint8_t* buf, size_t cap)
    : buf_(buf), cap_(cap < kMaxMessage ? cap : kMaxMessage), limit_(cap_) {
  if (cap_ < kHeaderSize) {
    full_ = true;
    return;
  }
  memset(buf_, 0, kHeaderSize);
  len_ = kHeaderSize;
}

void Writer::header(uint16_t id, uint16_t flags) {
  if (len_ < kHeaderSize) return;
  store16(buf_, id);
  set_flags(flags);
}

void Writer::set_flags(uint16_t flags) {
  if (len_ >= kHeaderSize) store16(buf_ + 2, full_ ? flags | kFlagTC : flags);
}

void Writer::set_rcode(uint8_t rcode) {
  if (len_ >= kHeaderSize)
    set_flags(uint16_t((load16(buf_ + 2) & ~kRcodeMask) | (rcode & kRcodeMask)));
}

void Writer::reserve(size_t n) { limit_ = n < limit_ ? limit_ - n : 0; }

void Writer::release(size_t n) { limit_ = n < cap_ - limit_ ? limit_ + n : cap_; }

bool Writer::put(const void* p, size_t n) {
  if (len_ > limit_ || limit_ - len_ < n) return false;
  if (n > 0) memcpy(buf_ + len_, p, n);
  len_ += n;
  return true;
}

// The longest suffix of `name` already in the message becomes a pointer.
bool Writer::put_name(const Name& name, bool compress) {
  size_t head = name.len - 1;  // label bytes written out, before the pointer or root
  size_t target = 0;
  if (compress && head > 0) {
    Reader written(buf_, len_);
    for (uint16_t off : name_offsets_) {
      size_t at = off;
      Name suffix, base;
      if (written.name_at(at, suffix) && name_strip_suffix(name, suffix, base) &&
          base.len - 1u < head) {
        head = base.len - 1u;
        target = off;
      }
    }
  }
  size_t start = len_;
  uint8_t pointer[2] = {uint8_t(0xc0 | target >> 8), uint8_t(target)};
  bool ended =
      head < name.len - 1u ? put(name.wire, head) && put(pointer, 2) : put(name.wire, name.len);
  if (!ended) return false;
  for (size_t p = 0; p < head && start + p <= kMaxPointerTarget; p += name.wire[p] + 1)
    name_offsets_.push(uint16_t(start + p));
  return true;
}

// Index 0 of the header counts is the questions, 1 + Section the records.
bool Writer::counts_zero_after(size_t index) const {
  for (size_t i = index + 1; i < 4; i++)
    if (load16(buf_ + 4 + 2 * i) != 0) return false;
  return true;
}

void Writer::bump(size_t index) {
  uint8_t* count = buf_ + 4 + 2 * index;
  store16(count, uint16_t(load16(count) + 1));
}

// The name table may keep offsets past len_: once full, nothing that
// compresses is written again (opt()'s owner is the root).
void Writer::fail_record() {
  len_ = record_start_;
  in_record_ = false;
  full_ = true;
  if (len_ >= kHeaderSize) store16(buf_ + 2, load16(buf_ + 2) | kFlagTC);
}

bool Writer::question(const Name& name, uint16_t type, uint16_t klass) {
  if (full_ || in_record_ || !counts_zero_after(0)) return false;
  record_start_ = len_;
  uint8_t fixed[4];
  store16(fixed, type);
  store16(fixed + 2, klass);
  if (!put_name(name, true) || !put(fixed, 4)) {
    fail_record();
    return false;
  }
  bump(0);
  return true;
}

// begin_record() without the full() check: opt() may still use the room
// that reserve() kept back.
bool Writer::start_record(Section s, const Name& owner, uint16_t type, uint32_t ttl,
                          uint16_t klass) {
  if (len_ < kHeaderSize || in_record_ || !counts_zero_after(1 + s)) return false;
  record_start_ = len_;
  record_section_ = s;
  in_record_ = true;
  uint8_t fixed[10];
  store16(fixed, type);
  store16(fixed + 2, klass);
  store32(fixed + 4, ttl);
  store16(fixed + 8, 0);
  if (!put_name(owner, true) || !put(fixed, 10)) {
    fail_record();
    return false;
  }
  rdlength_at_ = len_ - 2;
  return true;
}

bool Writer::begin_record(Section s, const Name& owner, uint16_t type, uint32_t ttl,
                          uint16_t klass) {
  return !full_ && start_record(s, owner, type, ttl, klass);
}

bool Writer::rdata_name(const Name& name) {
  if (!in_record_) return false;
  uint16_t type = load16(buf_ + rdlength_at_ - 8);
  if (!put_name(name, compressible(type))) {
    fail_record();
    return false;
  }
  return true;
}

bool Writer::rdata_bytes(Bytes b) {
  if (!in_record_) return false;
  if (!put(b.data, b.size)) {
    fail_record();
    return false;
  }
  return true;
}

bool Writer::end_record() {
  if (!in_record_) return false;
  store16(buf_ + rdlength_at_, uint16_t(len_ - rdlength_at_ - 2));
  bump(1 + record_section_);
  in_record_ = false;
  return true;
}

bool Writer::record(Section s, const Name& owner, uint16_t type, uint32_t ttl, Bytes rdata,
                    uint16_t klass) {
  return begin_record(s, owner, type, ttl, klass) && rdata_bytes(rdata) && end_record();
}

bool Writer::opt(uint16_t udp_size, uint8_t ext_rcode, uint16_t flags, const EdnsOption* options,
                 size_t count) {
  if (!start_record(kAdditional, Name{}, kTypeOPT, uint32_t(ext_rcode) << 24 | flags, udp_size))
    return false;
  for (size_t i = 0; i < count; i++) {
    uint8_t head[4];
    store16(head, options[i].code);
    store16(head + 2, uint16_t(options[i].value.size));
    if (!rdata_bytes(Bytes{head, 4}) || !rdata_bytes(options[i].value)) return false;
  }
  return end_record();
}

}  // namespace rk8s::dns
