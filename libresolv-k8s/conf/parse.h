// What the resolv.conf dialects (conf_glibc.cc, conf_musl.cc) share: text
// scanning, nameserver addresses, the search list and the options words.
#pragma once

#include "conf/resolv_conf.h"

namespace rk8s::conf {

using CharClass = bool (*)(char);

// glibc splits resolv.conf on space and tab only; musl on isspace().
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

inline Str drop(Str s, size_t n) { return n >= s.size ? Str{s.data + s.size, 0} : Str{s.data + n, s.size - n}; }
inline Str take(Str s, size_t n) { return Str{s.data, n < s.size ? n : s.size}; }
inline bool starts_with(Str s, const char* prefix) {
  size_t n = strlen(prefix);
  return s.size >= n && memcmp(s.data, prefix, n) == 0;
}
inline size_t find(Str s, char c) {
  const void* p = s.size ? memchr(s.data, c, s.size) : nullptr;
  return p ? size_t(static_cast<const char*>(p) - s.data) : s.size;
}
inline Str skip(Str s, CharClass sep) {
  size_t i = 0;
  while (i < s.size && sep(s.data[i])) i++;
  return drop(s, i);
}
// The leading run of bytes that are not separators.
inline Str word(Str s, CharClass sep) {
  size_t i = 0;
  while (i < s.size && !sep(s.data[i])) i++;
  return take(s, i);
}

// conf_addr.cc
bool parse_ipv4(Str s, uint8_t out[4]);
bool parse_nameserver(Dialect d, Str token, Nameserver& out);

// conf_search.cc
void search_clear(Config& c);
void search_add(Config& c, Str domain);
void search_add_words(Config& c, Str text, CharClass sep);

// conf_options.cc
void glibc_options(Str text, Config& c);
void musl_options(Str line, Config& c);

void parse_glibc(Str text, const ConfEnv& env, Config& c);
void parse_musl(Str text, Config& c);

}  // namespace rk8s::conf
