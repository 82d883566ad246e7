// SPDX-License-Identifier: Apache-2.0
// resolv.conf as glibc 2.36 reads it (resolv/res_init.c), with LOCALDOMAIN,
// RES_OPTIONS and the host name's domain.
#include "conf/glibc.h"

#include "conf/options.h"
#include "conf/search_list.h"
#include "util/text.h"

namespace rk8s::conf {

// A keyword at column 0 followed by a blank; returns what follows the keyword.
static bool keyword(Str line, const char* name, Str& rest) {
  size_t n = strlen(name);
  if (!starts_with(line, name) || line.size == n || !is_blank(line.data[n])) return false;
  rest = drop(line, n);
  return true;
}

// LOCALDOMAIN ends at a newline; its first domain starts at byte 0 even when
// that is a blank, which makes an empty (root) entry.
static void localdomain(Str s, Config& c) {
  s = take(s, find(s, '\n'));
  search_clear(c);
  Str first = word(s, is_blank);
  search_add(c, first);
  search_add_words(c, drop(s, first.size), is_blank);
}

// A scope glibc cannot read is dropped, the address kept.
static void nameserver(Str rest, Config& c) {
  IpAddr ns;
  if (parse_ip_literal(Dialect::glibc, word(skip(rest, is_blank), is_blank), ns) == Literal::none)
    c.warnings |= kWarnBadNameserver;
  else if (!c.ns.push(ns))
    c.warnings |= kWarnExtraNameserver;
}

// Lines end at a newline; a NUL ends the line's text early (glibc reads the
// line, then treats it as a C string). Bare `domain`/`search` change nothing.
static void file_line(Str line, bool env_domains, Config& c) {
  Str rest;
  line = take(line, find(line, '\0'));
  if (line.size == 0 || line.data[0] == '#' || line.data[0] == ';') return;
  if (keyword(line, "domain", rest)) {
    rest = skip(rest, is_blank);
    if (env_domains || rest.size == 0) return;
    search_clear(c);
    search_add(c, word(rest, is_blank));
  } else if (keyword(line, "search", rest)) {
    rest = skip(rest, is_blank);
    if (env_domains || rest.size == 0) return;
    search_clear(c);
    search_add_words(c, rest, is_blank);
  } else if (keyword(line, "nameserver", rest)) {
    nameserver(rest, c);
  } else if (keyword(line, "options", rest)) {
    glibc_options(rest, c);
  }
}

// The part after the first dot, when the search list is still empty.
static void hostname_domain(const char* hostname, Config& c) {
  if (!hostname) return;
  const char* dot = strchr(hostname, '.');
  if (dot) search_add(c, str(dot + 1));
}

void parse_glibc(Str text, const ConfEnv& env, Config& c) {
  if (env.localdomain) localdomain(str(env.localdomain), c);
  while (text.size) {
    size_t end = find(text, '\n');
    file_line(take(text, end), env.localdomain != nullptr, c);
    text = drop(text, end + 1);
  }
  if (c.search_count() == 0) hostname_domain(env.hostname, c);
  if (env.res_options) glibc_options(str(env.res_options), c);
}

}  // namespace rk8s::conf
