// SPDX-License-Identifier: Apache-2.0
// glibc 2.36's gaiconf_init, rule for rule: comments from '#', three
// whitespace-separated words per line, the rest ignored; a malformed rule is
// skipped; tables sorted most specific first, file order among equals.
#include "files/gai_conf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "util/text.h"

namespace rk8s {
namespace {

constexpr uint8_t kLoopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
constexpr uint8_t k6to4[] = {0x20, 0x02};
constexpr uint8_t kSiteLocal[] = {0xfe, 0xc0};
constexpr uint8_t kUla[] = {0xfc};
constexpr uint8_t kTeredo[] = {0x20, 0x01};
constexpr uint8_t kAny[] = {0};

// The prefix's first bytes; the rest are 0.
template <size_t N = 0>
GaiPrefix rule(const uint8_t (&prefix)[N], uint8_t bits, int32_t val) {
  GaiPrefix r;
  memcpy(r.prefix, prefix, N);
  r.bits = bits;
  r.val = val;
  return r;
}

GaiScope scope_rule(uint8_t a, uint8_t b, uint32_t mask, int32_t scope) {
  const uint8_t bytes[4] = {a, b, 0, 0};
  GaiScope r;
  memcpy(&r.addr, bytes, 4);
  r.mask = htonl(mask);
  r.scope = scope;
  return r;
}

// The next word of [p, end), NUL-terminated into buf; false when too long
// (no valid word is anywhere near that long).
bool next_word(const char*& p, const char* end, char (&buf)[256]) {
  while (p < end && is_space(*p)) ++p;
  const char* w = p;
  while (p < end && !is_space(*p)) ++p;
  size_t n = size_t(p - w);
  if (n >= sizeof buf) return false;
  memcpy(buf, w, n);
  buf[n] = 0;
  return true;
}

// strtoul(s, &end, 10) accepted in full, as glibc checks it; nullptr = absent.
bool whole_ulong(const char* s, unsigned long& out) {
  if (!s) return true;
  char* end;
  errno = 0;
  out = strtoul(s, &end, 10);
  return !(out == ULONG_MAX && errno == ERANGE) && *end == 0;
}

// "prefix[/bits]" into its parts; the '/' is cut out.
const char* split_bits(char* word) {
  char* slash = strchr(word, '/');
  if (!slash) return nullptr;
  *slash = 0;
  return slash + 1;
}

// Stable, most specific first (glibc's qsort is a stable merge sort here).
template <class T, size_t N, class Key>
void sort_specific_first(FixedVec<T, N>& v, Key key) {
  for (size_t i = 1; i < v.count; ++i) {
    T x = v[i];
    size_t j = i;
    for (; j > 0 && key(v[j - 1]) < key(x); --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

struct Tables {
  GaiConf& out;
  FixedVec<GaiPrefix, kMaxGaiRules + 1> labels, precedence;
  FixedVec<GaiScope, kMaxGaiRules + 1> scopes;
};

void add_prefix(FixedVec<GaiPrefix, kMaxGaiRules + 1>& list, bool& complete, char* val1,
                const char* val2) {
  const char* bits_text = split_bits(val1);
  GaiPrefix r;
  unsigned long bits = 128, val;
  if (inet_pton(AF_INET6, val1, r.prefix) == 1 && whole_ulong(bits_text, bits) && bits <= 128 &&
      whole_ulong(val2, val) && val <= INT_MAX) {
    r.bits = uint8_t(bits);
    r.val = int32_t(val);
    if (list.count == kMaxGaiRules || !list.push(r)) complete = false;
  }
}

// bits counts from the start of the IPv4-mapped IPv6 address (96..128).
void push_scope(Tables& t, const uint8_t* v4, unsigned long bits, unsigned long val) {
  GaiScope r;
  r.mask = htonl(bits != 96 ? 0xffffffffu << (128 - bits) : 0);
  memcpy(&r.addr, v4, 4);
  r.addr &= r.mask;
  r.scope = int32_t(val);
  if (t.scopes.count == kMaxGaiRules || !t.scopes.push(r)) t.out.complete = false;
}

void add_scope(Tables& t, char* val1, const char* val2) {
  const char* bits_text = split_bits(val1);
  uint8_t a6[16];
  uint8_t a4[4];
  unsigned long bits, val;
  if (inet_pton(AF_INET6, val1, a6) == 1) {
    bits = 128;
    if (memcmp(a6, kV4MappedPrefix, 12) == 0 && whole_ulong(bits_text, bits) && bits >= 96 &&
        bits <= 128 && whole_ulong(val2, val) && val <= INT_MAX)
      push_scope(t, a6 + 12, bits, val);
  } else if (inet_pton(AF_INET, val1, a4) == 1) {
    bits = 32;
    if (whole_ulong(bits_text, bits) && bits <= 32 && whole_ulong(val2, val) && val <= INT_MAX)
      push_scope(t, a4, bits + 96, val);
  }
}

void parse_line(Tables& t, const char* p, const char* end) {
  char cmd[256], val1[256], val2[256];
  if (!next_word(p, end, cmd) || !next_word(p, end, val1) || !next_word(p, end, val2)) return;
  if (!cmd[0]) return;
  if (strcmp(cmd, "label") == 0) {
    add_prefix(t.labels, t.out.complete, val1, val2);
  } else if (strcmp(cmd, "precedence") == 0) {
    add_prefix(t.precedence, t.out.complete, val1, val2);
  } else if (strcmp(cmd, "scopev4") == 0) {
    add_scope(t, val1, val2);
  } else if (strcmp(cmd, "reload") == 0) {
    t.out.reload = strcmp(val1, "yes") == 0;
  }
}

// A table from the file replaces the default; it gets a catch-all rule
// unless it has one.
void install_prefixes(FixedVec<GaiPrefix, kMaxGaiRules + 1>& from,
                      FixedVec<GaiPrefix, kMaxGaiRules + 1>& to, int32_t catch_all) {
  if (from.count == 0) return;
  bool has_catch_all = false;
  for (const GaiPrefix& r : from) has_catch_all |= r.bits == 0;
  if (!has_catch_all) from.push(rule(kAny, 0, catch_all));
  sort_specific_first(from, [](const GaiPrefix& r) { return r.bits; });
  to = from;
}

}  // namespace

void gai_conf_defaults(GaiConf& out) {
  out = GaiConf{};
  out.labels.push(rule(kLoopback, 128, 0));
  out.labels.push(rule(k6to4, 16, 2));
  out.labels.push(rule(kAny, 96, 3));
  out.labels.push(rule(kV4MappedPrefix, 96, 4));
  out.labels.push(rule(kSiteLocal, 10, 5));
  out.labels.push(rule(kUla, 7, 6));
  out.labels.push(rule(kTeredo, 32, 7));
  out.labels.push(rule(kAny, 0, 1));
  out.precedence.push(rule(kLoopback, 128, 50));
  out.precedence.push(rule(k6to4, 16, 30));
  out.precedence.push(rule(kAny, 96, 20));
  out.precedence.push(rule(kV4MappedPrefix, 96, 10));
  out.precedence.push(rule(kAny, 0, 40));
  out.scopes.push(scope_rule(169, 254, 0xffff0000, 2));
  out.scopes.push(scope_rule(127, 0, 0xff000000, 2));
  out.scopes.push(scope_rule(0, 0, 0, 14));
}

void parse_gai_conf(const char* text, size_t len, GaiConf& out) {
  gai_conf_defaults(out);
  Tables t{out, {}, {}, {}};
  const char* end = text + len;
  for (const char* line = text; line < end;) {
    const char* nl = static_cast<const char*>(memchr(line, '\n', size_t(end - line)));
    const char* next = nl ? nl + 1 : end;
    // The C string functions glibc uses stop at a NUL byte.
    const char* stop = static_cast<const char*>(memchr(line, 0, size_t(next - line)));
    if (!stop) stop = next;
    const char* hash = static_cast<const char*>(memchr(line, '#', size_t(stop - line)));
    parse_line(t, line, hash ? hash : stop);
    line = next;
  }
  install_prefixes(t.labels, out.labels, 1);
  install_prefixes(t.precedence, out.precedence, 40);
  if (t.scopes.count) {
    bool has_catch_all = false;
    for (const GaiScope& r : t.scopes) has_catch_all |= r.mask == 0;
    if (!has_catch_all) t.scopes.push(GaiScope{0, 0, 14});
    // glibc compares the network-order masks as integers: longer mask, larger.
    sort_specific_first(t.scopes, [](const GaiScope& r) { return r.mask; });
    out.scopes = t.scopes;
  }
}

namespace {

// glibc reads gai.conf once, and again when it changed only if it said
// `reload yes`; without a file, its defaults.
bool parse(Str text, GaiConf& out) {
  parse_gai_conf(text.data, text.size, out);
  return out.reload;
}

constinit WatchedFile<GaiConf> gai_conf("/etc/gai.conf", parse, false);

}  // namespace

GaiConfRef current_gai_conf() { return gai_conf.current(); }

}  // namespace rk8s
