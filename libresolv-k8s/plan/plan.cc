// SPDX-License-Identifier: Apache-2.0
// The search plan of glibc's __res_context_search and musl's
// name_from_dns_search (see plan.h).
#include "plan/plan.h"

#include <netdb.h>

#include "util/text.h"

namespace rk8s {

// glibc reads 1025-byte buffers (MAXDNAME) before it encodes a name.
constexpr size_t kGlibcMaxText = 1025;

static size_t count_dots(Str s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size; i++) n += s.data[i] == '.';
  return n;
}

static bool ends_with_dot(Str s) { return s.size && s.data[s.size - 1] == '.'; }

// res_hnok: printable ASCII that ns_name_pton accepts, labels of
// [0-9A-Za-z_-], the first not starting with '-'.
static bool glibc_hostname(Str name, dns::Name& wire) {
  for (size_t i = 0; i < name.size; i++)
    if (name.data[i] <= ' ' || name.data[i] > '~') return false;
  if (!dns::name_from_text(name, wire)) return false;
  if (wire.wire[0] && wire.wire[1] == '-') return false;
  for (size_t p = 0; wire.wire[p]; p += wire.wire[p] + 1)
    for (size_t i = p + 1; i <= p + wire.wire[p]; i++) {
      char c = ascii_lower(char(wire.wire[i]));
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
    }
  return true;
}

// res_mkquery as musl has it: no escapes, one final dot dropped, labels of
// 1 to 63 bytes, at most 253 bytes of text.
static bool musl_name(Str text, dns::Name& out) {
  if (ends_with_dot(text)) text.size--;
  if (text.size == 0 || text.size > dns::kMaxName - 2) return false;
  size_t label = 0;
  for (size_t i = 0; i <= text.size; i++) {
    if (i < text.size && text.data[i] != '.') continue;
    size_t n = i - label;
    if (n == 0 || n > 63) return false;
    out.wire[label] = uint8_t(n);
    memcpy(out.wire + label + 1, text.data + label, n);
    label = i + 1;
  }
  out.wire[text.size + 1] = 0;
  out.len = uint8_t(text.size + 2);
  return true;
}

bool marker_domain(Str d) {
  if (ends_with_dot(d)) d.size--;
  const char kTail[] = ".ap.k8s.io";
  size_t tail = sizeof kTail - 1;
  return d.size > 7 + tail && equal_nocase(take(d, 7), Str{"search.", 7}) &&
         equal_nocase(drop(d, d.size - tail), Str{kTail, tail});
}

// glibc drops one leading '.' of a search domain, so "." is the root.
static Str glibc_domain_text(const Config& conf, size_t i) {
  Str d = conf.search(i);
  return d.size && d.data[0] == '.' ? Str{d.data + 1, d.size - 1} : d;
}

static bool domain_name(const Config& conf, size_t i, dns::Name& out) {
  if (conf.dialect == Dialect::musl) return musl_name(conf.search(i), out);
  Str d = glibc_domain_text(conf, i);
  if (d.size == 0) {
    out = dns::Name{};
    return true;
  }
  return dns::name_from_text(d, out);
}

static void plan_glibc(const Config& conf, Str name, Plan& out) {
  // check_name in nss_dns: HOST_NOT_FOUND, which getaddrinfo reports as EAI_NONAME.
  if (!glibc_hostname(name, out.base)) return;
  if (ends_with_dot(name)) {
    out.suffix.push(kAsIs);
    return;
  }
  size_t dots = count_dots(name);
  bool as_is_first = dots >= conf.opt.ndots;
  if (as_is_first) out.suffix.push(kAsIs);
  // From 2.44 on (bug 33804) the name as typed is asked once: a "." in the
  // search list is skipped once it was, as is or by an earlier ".".
  bool once = conf.release >= release(2, 44);
  bool tried_as_is = as_is_first;
  for (size_t i = 0; i < conf.search_count(); i++) {
    Str d = glibc_domain_text(conf, i);
    if (d.size == 0) {
      if (once && tried_as_is) continue;
      tried_as_is = true;
    }
    if (marker_domain(d)) continue;
    // A candidate res_mkquery refuses fails with NO_RECOVERY: the search
    // stops there, and the as-is query below still goes out.
    dns::Name domain, candidate;
    if (name.size + d.size + 1 >= kGlibcMaxText || !domain_name(conf, i, domain) ||
        !dns::name_concat(out.base, domain, candidate))
      break;
    out.suffix.push(uint8_t(i));
  }
  bool searched = conf.search_count() != 0;
  if (!tried_as_is && (dots || !searched || !conf.opt.no_tld_query))
    out.suffix.push(kAsIs);
}

static void plan_musl(const Config& conf, Str name, Plan& out) {
  // __lookup_name: empty or 255 bytes and over; name_from_dns_search: "."
  // and several final dots. res_mkquery failing on the name fails every
  // candidate, so the walk ends at once.
  if (name.size == 0 || name.size > 254) return;
  size_t l = name.size - ends_with_dot(name);
  if (l == 0 || name.data[l - 1] == '.' || !musl_name(name, out.base)) return;
  if (count_dots(name) >= conf.opt.ndots || ends_with_dot(name)) {
    out.suffix.push(kAsIs);
    return;
  }
  for (size_t i = 0; i < conf.search_count(); i++) {
    if (conf.search(i).size >= 255 - l) continue;  // musl skips a domain too long for its buffer
    if (marker_domain(conf.search(i))) continue;
    // res_mkquery failing is EAI_NONAME, which ends the walk; from 1.2.4 on
    // the candidate counts as not existing, and the walk goes on (1e7fb12f).
    dns::Name domain, candidate;
    if (!musl_name(conf.search(i), domain) || !dns::name_concat(out.base, domain, candidate)) {
      if (conf.release < release(1, 2, 4)) return;
      continue;
    }
    out.suffix.push(uint8_t(i));
  }
  out.suffix.push(kAsIs);
}

void build_plan(const Config& conf, Str name, Plan& out) {
  out = Plan{};
  out.error = EAI_NONAME;
  const void* nul = name.size ? memchr(name.data, 0, name.size) : nullptr;
  if (nul) name.size = size_t(static_cast<const char*>(nul) - name.data);
  if (conf.dialect == Dialect::musl)
    plan_musl(conf, name, out);
  else
    plan_glibc(conf, name, out);
  // No candidate left (a walk that ends before its first query): the libc
  // fails without asking DNS.
  if (out.suffix.count) {
    out.kind = Plan::dns;
    out.error = 0;
  }
}

static bool suffix_name(const Config& conf, uint8_t suffix, dns::Name& out) {
  if (suffix != kAsIs) return domain_name(conf, suffix, out);
  out = dns::Name{};
  return true;
}

bool candidate_name(const Config& conf, const Plan& plan, size_t i, dns::Name& out) {
  dns::Name suffix;
  return i < plan.suffix.count && suffix_name(conf, plan.suffix[i], suffix) &&
         dns::name_concat(plan.base, suffix, out);
}

bool autopath_query(const Config& conf, const Plan& plan, uint8_t flags, dns::Name& qname,
                    autopath::QueryOption& opt) {
  opt.count = 0;
  if (!candidate_name(conf, plan, 0, qname) ||
      plan.suffix.count < ((flags & autopath::kFlagBoth) ? 1u : 2u) ||
      plan.suffix.count > autopath::kMaxSuffixes)
    return false;
  opt.flags = uint8_t(flags | autopath::kFlagQ);
  for (uint8_t s : plan.suffix) suffix_name(conf, s, opt.suffix[opt.count++]);
  return true;
}

uint8_t autopath_flags(Dialect dialect, size_t nq) {
  return autopath::kFlagQ | autopath::kFlagStopOnExists |
         (dialect == Dialect::glibc ? autopath::kFlagPastNodata : 0) |
         (nq == 2 ? autopath::kFlagPaired : 0);
}

}  // namespace rk8s
