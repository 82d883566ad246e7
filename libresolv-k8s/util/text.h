// SPDX-License-Identifier: Apache-2.0
// Text scanning over Str: character classes of the C locale (what musl's
// ctype always is, and what glibc's is for the bytes the files hold), and
// the few cuts every parser of the core makes.
#pragma once

#include "util/base.h"

namespace rk8s {

using CharClass = bool (*)(char);

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_hex(char c) { return is_digit(c) || ((c | 32) >= 'a' && (c | 32) <= 'f'); }
inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c + 32) : c; }

inline Str drop(Str s, size_t n) { return n >= s.size ? Str{s.data + s.size, 0} : Str{s.data + n, s.size - n}; }
inline Str take(Str s, size_t n) { return Str{s.data, n < s.size ? n : s.size}; }
inline bool starts_with(Str s, const char* prefix) {
  size_t n = strlen(prefix);
  return s.size >= n && memcmp(s.data, prefix, n) == 0;
}
// The index of the first `c`, or s.size.
inline size_t find(Str s, char c) {
  const void* p = s.size ? memchr(s.data, c, s.size) : nullptr;
  return p ? size_t(static_cast<const char*>(p) - s.data) : s.size;
}
// The index of the first occurrence of `key`, or s.size.
inline size_t find(Str s, const char* key) {
  size_t n = strlen(key);
  for (size_t i = 0; i + n <= s.size; i++)
    if (memcmp(s.data + i, key, n) == 0) return i;
  return s.size;
}
// `s` from its first byte that is not in `cls`.
inline Str skip(Str s, CharClass cls) {
  size_t i = 0;
  while (i < s.size && cls(s.data[i])) i++;
  return drop(s, i);
}
// The leading run of bytes that are not separators.
inline Str word(Str s, CharClass sep) {
  size_t i = 0;
  while (i < s.size && !sep(s.data[i])) i++;
  return take(s, i);
}
// ASCII case-insensitive.
inline bool equal_nocase(Str a, Str b) {
  if (a.size != b.size) return false;
  for (size_t i = 0; i < a.size; i++)
    if (ascii_lower(a.data[i]) != ascii_lower(b.data[i])) return false;
  return true;
}

}  // namespace rk8s
