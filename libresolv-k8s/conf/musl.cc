// SPDX-License-Identifier: Apache-2.0
// resolv.conf as musl 1.2.3 reads it (src/network/resolvconf.c), except
// that lines of any length are read: musl skips lines over 255 bytes.
#include "conf/musl.h"

#include "conf/options.h"
#include "conf/search_list.h"
#include "util/text.h"

namespace rk8s::conf {

constexpr size_t kMuslLineMax = 255;  // fgets() into char[256], newline included

// `line` keeps its newline: a keyword must be followed by isspace(), and
// that may be the newline itself.
static bool keyword(Str line, const char* name) {
  size_t n = strlen(name);
  return starts_with(line, name) && line.size > n && is_space(line.data[n]);
}

static void nameserver(Str line, Config& c) {
  if (c.ns.full()) {
    c.warnings |= kWarnExtraNameserver;
    return;
  }
  // musl skips exactly one byte after the keyword (the space it checked).
  IpAddr ns;
  if (parse_ip_literal(Dialect::musl, word(skip(drop(line, 11), is_space), is_space), ns) == Literal::ok)
    c.ns.push(ns);
  else
    c.warnings |= kWarnBadNameserver;
}

// `domain` and `search` both keep the rest of the line, however empty.
static void line_in(Str line, Config& c) {
  if (keyword(line, "options")) {
    musl_options(line, c);
  } else if (keyword(line, "nameserver")) {
    nameserver(line, c);
  } else if (keyword(line, "domain") || keyword(line, "search")) {
    search_clear(c);
    search_add_words(c, drop(line, 7), is_space);
  }
}

// fgets() finds no newline in a line with a NUL before it, so musl takes the
// line as truncated and throws away everything up to the next newline: the
// following line. The last line, cut by end of file, is read up to the NUL.
void parse_musl(Str text, Config& c) {
  while (text.size) {
    size_t end = find(text, '\n');
    bool has_newline = end < text.size;
    Str line = take(text, end + 1);
    text = drop(text, end + 1);
    if (end >= kMuslLineMax) c.warnings |= kWarnLongLine;
    size_t nul = find(line, '\0');
    if (nul < line.size && has_newline) {
      text = drop(text, find(text, '\n') + 1);
      continue;
    }
    line_in(take(line, nul), c);
  }
}

}  // namespace rk8s::conf
