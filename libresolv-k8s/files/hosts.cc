// SPDX-License-Identifier: Apache-2.0
// /etc/hosts lookups, one function per libc (see hosts.h).
#include "files/hosts.h"

#include <netdb.h>
#include <netinet/in.h>

#include "util/text.h"

namespace rk8s {

static size_t names_end(const HostsResult& r) {
  if (r.alias_at.count == 0) return strlen(r.names) + 1;
  size_t last = r.alias_at[r.alias_at.count - 1];
  return last + strlen(r.names + last) + 1;
}

static void set_canon(HostsResult& r, Str s) {
  if (s.size >= kHostsNameBytes) {
    r.complete = false;
    return;
  }
  memcpy(r.names, s.data, s.size);
  r.names[s.size] = 0;
}

static void add_alias(HostsResult& r, Str s) {
  size_t at = names_end(r);
  if (at + s.size + 1 > kHostsNameBytes || !r.alias_at.push(uint16_t(at))) {
    r.complete = false;
    return;
  }
  memcpy(r.names + at, s.data, s.size);
  r.names[at + s.size] = 0;
}

static void add_addr(HostsResult& r, const IpAddr& a) {
  if (!r.addrs.push(a)) r.complete = false;
}

// inet_pton as nss_files calls it for `family`: strict text forms; an
// IPv4 lookup also takes ::ffff:a.b.c.d and ::1 as IPv4.
static bool glibc_address(int family, Str token, IpAddr& a) {
  if (family != AF_INET6 && parse_inet_pton(AF_INET, token, a.addr)) {
    a.family = AF_INET;
    return true;
  }
  in6_addr a6;
  if (!parse_inet_pton(AF_INET6, token, a6.s6_addr)) return false;
  if (family != AF_INET) {
    a.family = AF_INET6;
    memcpy(a.addr, &a6, 16);
    return true;
  }
  a.family = AF_INET;
  if (IN6_IS_ADDR_V4MAPPED(&a6)) {
    memcpy(a.addr, a6.s6_addr + 12, 4);
    return true;
  }
  if (IN6_IS_ADDR_LOOPBACK(&a6)) {
    store32(a.addr, INADDR_LOOPBACK);
    return true;
  }
  return false;
}

static bool names_match(Str name, Str h_name, Str aliases) {
  if (equal_nocase(name, h_name)) return true;
  for (Str w = aliases; w.size; w = skip(drop(w, word(w, is_space).size), is_space))
    if (equal_nocase(name, word(w, is_space))) return true;
  return false;
}

// A line as __nss_readline hands it on, or empty for blank and comment
// lines. Leading white space is removed with memmove(buf, p, strlen(p)),
// which leaves the NUL where it was: a line without a newline (the last
// one, or one cut short by a NUL byte) ends with its own last characters
// again. That copy goes to `buf`; `fits` is false when it does not fit.
static Str glibc_line(Str raw, bool newline, char (&buf)[512], bool& fits) {
  size_t nul = find(raw, '\0');
  if (nul < raw.size) {
    raw = take(raw, nul);
    newline = false;
  }
  size_t n = raw.size - skip(raw, is_space).size;
  if (n == raw.size || raw.data[n] == '#') return Str{};
  if (newline || n == 0) return drop(raw, n);
  fits = raw.size <= sizeof buf;
  if (!fits) return Str{};
  memcpy(buf, raw.data + n, raw.size - n);
  memcpy(buf + raw.size - n, raw.data + raw.size - n, n);
  return Str{buf, raw.size};
}

// The most room nss_files may need for a line in the caller's buffer: the
// line, then a pointer per alias (parse_list), counting every white space
// as a separator.
static size_t line_room(Str raw) {
  size_t room = raw.size;
  for (size_t i = 0; i < raw.size; i++) room += is_space(raw.data[i]) ? sizeof(char*) : 0;
  return room;
}

static void hosts_glibc(const HostsQuery& q, LineReader& lines, Str name, HostsResult& out) {
  bool matched = false;
  Str raw;
  while (out.complete && lines.next(SIZE_MAX, raw)) {
    size_t room = line_room(raw);
    if (room > out.line_room) out.line_room = room;
    bool newline = raw.data[raw.size - 1] == '\n';
    char buf[512];
    Str line = glibc_line(take(raw, raw.size - newline), newline, buf, out.complete);
    line = take(line, find(line, '#'));
    Str addr = word(line, is_space);
    Str rest = skip(drop(line, addr.size), is_space);
    Str h_name = word(rest, is_space);
    Str aliases = skip(drop(rest, h_name.size), is_space);
    // The names first: most lines are not the name's, and their address
    // need not be parsed (a line with a bad one is skipped either way).
    IpAddr a;
    if (!line.size || !names_match(name, h_name, aliases) || !glibc_address(q.family, addr, a))
      continue;
    add_addr(out, a);
    if (!matched) set_canon(out, h_name);
    if (q.family != AF_UNSPEC) {
      // gethostbyname3: aliases, and the later lines' names that differ (strcmp).
      for (Str w = aliases; w.size; w = skip(drop(w, word(w, is_space).size), is_space))
        add_alias(out, word(w, is_space));
      if (matched && !(h_name == str(out.names))) add_alias(out, h_name);
    }
    matched = true;
    if (!q.multi) return;
  }
}

static bool musl_valid_hostname(Str s) {
  if (s.size == 0 || s.size > 254) return false;
  for (size_t i = 0; i < s.size; i++) {
    uint8_t c = uint8_t(s.data[i]);
    bool ok = c >= 0x80 || c == '.' || c == '-' || (c >= '0' && c <= '9') ||
              ((c | 32) >= 'a' && (c | 32) <= 'z');
    if (!ok) return false;
  }
  return true;
}

// strstr from the second byte on, until an occurrence has white space (or
// the newline the comment cut left) on both sides; the terminating NUL is
// not white space.
static bool musl_line_names(const char* line, size_t len, Str name) {
  for (size_t p = 1; p + name.size <= len; p++)
    if (memcmp(line + p, name.data, name.size) == 0 && is_space(line[p - 1]) &&
        is_space(line[p + name.size]))
      return true;
  return false;
}

// __lookup_ipliteral: 1, 0 (no address: the line is skipped) or EAI_NONAME
// (the other family, or an IPv6 scope musl rejects).
static int musl_address(int family, Str token, IpAddr& a) {
  switch (parse_ip_literal(Dialect::musl, token, a)) {
    case Literal::none: return 0;
    case Literal::bad_scope: return EAI_NONAME;
    case Literal::ok: return family != AF_UNSPEC && family != a.family ? EAI_NONAME : 1;
  }
  return 0;
}

static void hosts_musl(const HostsQuery& q, LineReader& lines, Str name, HostsResult& out) {
  name = take(name, find(name, '\0'));
  if (name.size == 0) return;
  set_canon(out, name);
  bool have_canon = false;
  Str chunk;
  // fgets(line, 512, f), then the string functions stop at a NUL.
  while (!out.addrs.full() && lines.next(511, chunk)) {
    char line[513];
    memcpy(line, chunk.data, chunk.size);
    line[chunk.size] = 0;
    if (char* hash = strchr(line, '#')) hash[0] = '\n', hash[1] = 0;
    size_t len = strlen(line);
    if (!musl_line_names(line, len, name)) continue;
    Str addr = word(Str{line, len}, is_space);
    switch (musl_address(q.family, addr, out.addrs.items[out.addrs.count])) {
      case 1:
        out.addrs.count++;
        break;
      case 0:
        continue;
      default:
        out.error = (q.release ? q.release : reference_release(q.dialect)) >= release(1, 2, 4)
                        ? EAI_NODATA  // 85050ac5
                        : EAI_NONAME;
    }
    if (have_canon) continue;
    Str first = word(skip(drop(Str{line, len}, addr.size + 1), is_space), is_space);
    if (musl_valid_hostname(first)) {
      set_canon(out, first);
      have_canon = true;
    }
  }
  if (out.found()) out.error = 0;
}

size_t hosts_lookup(const HostsQuery& q, LineReader& lines, Str name, HostsResult& out) {
  out = HostsResult{};
  if (q.dialect == Dialect::musl)
    hosts_musl(q, lines, name, out);
  else
    hosts_glibc(q, lines, name, out);
  if (lines.failed()) out.complete = false;
  return out.addrs.count;
}

}  // namespace rk8s
