// SPDX-License-Identifier: Apache-2.0
// glibc 2.36's nss_database_reload and nss_action_parse, reduced to a plan.
// Quirks kept: no comments (a '#' is a source name), a last line without
// '\n' is not read, a syntax error in any database's line fails the whole
// file (then glibc's hosts lookups fail: leave them to libc).
#include "files/nsswitch.h"

#include "util/text.h"

namespace rk8s {
namespace {

const char* const kDatabases[] = {
    "aliases", "ethers", "group", "group_compat", "gshadow", "hosts", "initgroups", "netgroup",
    "networks", "passwd", "passwd_compat", "protocols", "publickey", "rpc", "services", "shadow",
    "shadow_compat",
};

bool is_database(Str name) {
  for (const char* db : kDatabases)
    if (name == str(db)) return true;
  return false;
}

enum Status { kSuccess, kNotFound, kUnavail, kTryAgain, kStatusCount };
enum Action : uint8_t { kReturn, kContinue, kMerge };

struct Source {
  Str name;
  Action on[kStatusCount];
};

constexpr size_t kMaxSources = 16;
using Sources = FixedVec<Source, kMaxSources>;

struct Cursor {
  const char* p;
  const char* end;
  char peek() const { return p < end ? *p : 0; }
  void skip_space() {
    while (p < end && is_space(*p)) ++p;
  }
  // Up to white space, '=' or ']' (and '[' for a source name).
  Str word(bool source) {
    const char* w = p;
    while (p < end && !is_space(*p) && *p != '=' && *p != ']' && !(source && *p == '[')) ++p;
    return Str{w, size_t(p - w)};
  }
};

bool parse_status(Str w, Status& s) {
  if (equal_nocase(w, str("SUCCESS"))) s = kSuccess;
  else if (equal_nocase(w, str("NOTFOUND"))) s = kNotFound;
  else if (equal_nocase(w, str("UNAVAIL"))) s = kUnavail;
  else if (equal_nocase(w, str("TRYAGAIN"))) s = kTryAgain;
  else return false;
  return true;
}

bool parse_action(Str w, Action& a) {
  if (equal_nocase(w, str("RETURN"))) a = kReturn;
  else if (equal_nocase(w, str("CONTINUE"))) a = kContinue;
  else if (equal_nocase(w, str("MERGE"))) a = kMerge;
  else return false;
  return true;
}

// "[!?STATUS=ACTION ...]" after a source; false on a syntax error.
bool parse_criteria(Cursor& c, Source& src) {
  ++c.p;  // '['
  c.skip_space();
  do {
    bool negate = c.peek() == '!';
    if (negate) ++c.p;
    Status status;
    if (!parse_status(c.word(false), status)) return false;
    c.skip_space();
    if (c.peek() != '=') return false;
    ++c.p;
    c.skip_space();
    Action action;
    if (!parse_action(c.word(false), action)) return false;
    if (negate) {
      Action kept = src.on[status];
      for (Action& a : src.on) a = action;
      src.on[status] = kept;
    } else {
      src.on[status] = action;
    }
    c.skip_space();
  } while (c.peek() != ']');
  ++c.p;
  return true;
}

// False on a syntax error; more sources than we keep count as one.
bool parse_sources(Cursor c, Sources& out, bool& overflow) {
  for (;;) {
    c.skip_space();
    if (c.p == c.end) return true;
    Source src{c.word(true), {kReturn, kContinue, kContinue, kContinue}};
    if (src.name.size == 0) return true;
    c.skip_space();
    if (c.peek() == '[' && !parse_criteria(c, src)) return false;
    overflow |= !out.push(src);
  }
}

bool default_actions(const Source& s) {
  return s.on[kSuccess] == kReturn && s.on[kNotFound] == kContinue &&
         s.on[kUnavail] == kContinue && s.on[kTryAgain] == kContinue;
}

HostsSources reduce(const Sources& s, bool overflow) {
  size_t i = 0;
  bool files = s.count > 0 && s[0].name == str("files") && default_actions(s[0]);
  if (files) ++i;
  // Only dns's SUCCESS action matters to us: after dns, libc takes over.
  if (i == s.count || !(s[i].name == str("dns")) || s[i].on[kSuccess] != kReturn)
    return HostsSources::libc;
  bool more = i + 1 < s.count || overflow;
  if (files) return more ? HostsSources::files_dns_then_libc : HostsSources::files_dns;
  return more ? HostsSources::dns_then_libc : HostsSources::dns;
}

}  // namespace

HostsSources nsswitch_hosts(const char* text, size_t len) {
  if (!text) return HostsSources::files_dns;
  Sources hosts;
  bool have_hosts = false, overflow = false;
  const char* end = text + len;
  for (const char* line = text;;) {
    const char* nl = static_cast<const char*>(memchr(line, '\n', size_t(end - line)));
    if (!nl) break;  // glibc stops at end of file, even mid-line
    const char* stop = static_cast<const char*>(memchr(line, 0, size_t(nl - line)));
    Cursor c{line, stop ? stop : nl};
    line = nl + 1;
    c.skip_space();
    const char* name = c.p;
    while (c.p < c.end && !is_space(*c.p) && *c.p != ':') ++c.p;
    if (c.p == c.end || c.p == name) continue;
    Str db{name, size_t(c.p - name)};
    while (c.p < c.end && (is_space(*c.p) || *c.p == ':')) ++c.p;
    if (!is_database(db)) continue;
    Sources sources;
    bool over = false;
    if (!parse_sources(c, sources, over)) return HostsSources::libc;
    if (db == str("hosts")) {
      hosts = sources;
      overflow = over;
      have_hosts = true;
    }
  }
  return have_hosts ? reduce(hosts, overflow) : HostsSources::files_dns;
}

}  // namespace rk8s
