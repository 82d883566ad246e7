// SPDX-License-Identifier: Apache-2.0
// Domain names in presentation form (RFC 1035 5.1), both directions.
#include "dns/wire.h"
#include "util/text.h"

namespace rk8s::dns {

// The characters ns_name_ntop escapes, so canonical names print as glibc's.
static bool needs_backslash(uint8_t c) {
  return c == '"' || c == '.' || c == ';' || c == '\\' || c == '(' || c == ')' || c == '@' ||
         c == '$';
}

// Text without escapes, a label at a time.
static bool plain_name_from_text(Str text, Name& out) {
  Name parsed;
  size_t len = 0;
  for (size_t i = 0; i < text.size;) {
    const void* dot = memchr(text.data + i, '.', text.size - i);
    size_t n = dot ? size_t(static_cast<const char*>(dot) - (text.data + i)) : text.size - i;
    if (n == 0 || n > 63 || len + n + 2 > kMaxName) return false;
    parsed.wire[len] = uint8_t(n);
    memcpy(parsed.wire + len + 1, text.data + i, n);
    len += n + 1;
    i += n + (dot != nullptr);
  }
  parsed.wire[len++] = 0;
  parsed.len = uint8_t(len);
  out = parsed;
  return true;
}

bool name_from_text(Str text, Name& out) {
  if (text.size == 1 && text.data[0] == '.') {
    out = Name{};
    return true;
  }
  if (text.size == 0) return false;
  if (!memchr(text.data, '\\', text.size)) return plain_name_from_text(text, out);
  Name parsed;
  uint8_t* w = parsed.wire;
  size_t len = 0;
  size_t label_at = 0;  // where the current label's length byte goes
  size_t i = 0;
  while (i < text.size) {
    if (label_at == len) len++;  // room for the label's length byte
    uint8_t c = uint8_t(text.data[i++]);
    if (c == '.') {
      size_t label_len = len - label_at - 1;
      if (label_len == 0) return false;
      w[label_at] = uint8_t(label_len);
      label_at = len;
      continue;
    }
    if (c == '\\') {
      if (i == text.size) return false;
      if (is_digit(text.data[i])) {
        if (text.size - i < 3 || !is_digit(text.data[i + 1]) || !is_digit(text.data[i + 2]))
          return false;
        unsigned v =
            (text.data[i] - '0') * 100 + (text.data[i + 1] - '0') * 10 + (text.data[i + 2] - '0');
        if (v > 255) return false;
        c = uint8_t(v);
        i += 3;
      } else {
        c = uint8_t(text.data[i++]);
      }
    }
    if (len - label_at - 1 == 63 || len + 1 >= kMaxName) return false;
    w[len++] = c;
  }
  if (len == 0) return false;
  if (label_at != len) w[label_at] = uint8_t(len - label_at - 1);  // no final dot
  w[len++] = 0;
  parsed.len = uint8_t(len);
  out = parsed;
  return true;
}

size_t name_to_text(const Name& name, char* out, size_t cap, bool final_dot) {
  size_t n = 0;
  auto emit = [&](char c) {
    if (n + 1 < cap) out[n] = c;
    n++;
  };
  if (name.len <= 1) emit('.');
  for (size_t p = 0; p < name.len && name.wire[p] != 0; p += name.wire[p] + 1) {
    if (p != 0) emit('.');
    for (size_t i = p + 1; i <= p + name.wire[p] && i < name.len; i++) {
      uint8_t c = name.wire[i];
      if (needs_backslash(c)) {
        emit('\\');
        emit(char(c));
      } else if (c <= 0x20 || c >= 0x7f) {
        emit('\\');
        emit(char('0' + c / 100));
        emit(char('0' + c / 10 % 10));
        emit(char('0' + c % 10));
      } else {
        emit(char(c));
      }
    }
  }
  if (final_dot && name.len > 1) emit('.');
  if (cap > 0) out[n < cap ? n : cap - 1] = 0;
  return n;
}

}  // namespace rk8s::dns
