// SPDX-License-Identifier: Apache-2.0
// resolv.conf, read exactly as the libc we replace reads it.
//
// Two dialects: glibc 2.36's res_init and musl 1.2.3's __get_resolv_conf.
// The parser is pure: the caller passes the file's bytes, the environment
// variables and the hostname, so every rule can be tested from a table.
#pragma once

#include "dns/autopath.h"
#include "util/ip.h"

namespace rk8s {

constexpr size_t kMaxNameservers = 3;
constexpr size_t kMaxSearch = 64;      // kubelet writes at most 32
constexpr size_t kSearchBytes = 4096;  // kubelet writes at most 2048

// Things worth telling the user; none of them stops the parse.
enum Warning : uint32_t {
  kWarnLongLine = 1u << 0,          // musl would skip this line (> 255 bytes); we read it
  kWarnExtraNameserver = 1u << 1,   // more than 3 nameservers: the rest ignored
  kWarnBadNameserver = 1u << 2,     // a nameserver line the libc drops
  kWarnAttemptsZero = 1u << 3,      // glibc sends nothing; musl crashes (SIGFPE): we keep 1
  kWarnOptionCapped = 1u << 4,      // ndots/timeout/attempts above the libc's cap
  kWarnBadProjectOption = 1u << 5,  // a k8s-autopath word we could not read
  kWarnTooLarge = 1u << 6,          // over our own limits: see Config::complete
};

struct Options {
  uint8_t ndots = 1;
  uint8_t timeout = 5;   // seconds; glibc waits 1 s for 0 (and for negatives, stored as 0)
  uint8_t attempts = 2;
  bool rotate = false;
  bool edns0 = false;
  bool single_request = false;
  bool single_request_reopen = false;
  bool no_tld_query = false;
  bool no_reload = false;
  bool use_vc = false;
  bool trust_ad = false;
  bool no_aaaa = false;
  bool strict_error = false;  // glibc 2.41: not emulated, so libc answers (Config::complete)
  // The project's own words, read in both dialects:
  //   k8s-autopath:on | k8s-autopath:off | k8s-autopath-code:N
  // No glibc option name is a prefix of them, and they hold none of the
  // strings musl looks for (ndots:, attempts:, timeout:).
  bool autopath = true;
  uint16_t autopath_code = autopath::kDefaultCode;
};

// The search domains' bytes, packed in order; a copy copies those in use.
struct SearchText {
  char bytes[kSearchBytes];
  size_t used = 0;

  SearchText() {}
  SearchText(const SearchText& o) { *this = o; }
  SearchText& operator=(const SearchText& o) {
    memmove(bytes, o.bytes, o.used);
    used = o.used;
    return *this;
  }
};

struct Config {
  Dialect dialect = Dialect::glibc;
  uint32_t release = reference_release(Dialect::glibc);  // of the dialect's libc (ConfEnv)
  Options opt;
  FixedVec<IpAddr, kMaxNameservers> ns;
  // Search domain i is search_text.bytes[search_start[i] .. search_start[i] + search_len[i]),
  // never empty: glibc's empty entries (LOCALDOMAIN=" a", hostname "h.") are
  // stored as ".", which its walk treats the same (the root).
  FixedVec<uint16_t, kMaxSearch> search_start;
  FixedVec<uint16_t, kMaxSearch> search_len;
  SearchText search_text;
  uint32_t warnings = 0;
  // False when the search list that won went beyond what we hold
  // (kMaxSearch, kSearchBytes), or an option asks for what we do not
  // emulate: the entry points then hand the whole lookup to libc.
  bool complete = true;

  size_t search_count() const { return search_start.count; }
  Str search(size_t i) const { return Str{search_text.bytes + search_start[i], search_len[i]}; }
};

// The environment and host facts resolv.conf parsing depends on.
struct ConfEnv {
  const char* localdomain = nullptr;  // LOCALDOMAIN (glibc only; nullptr = unset)
  const char* res_options = nullptr;  // RES_OPTIONS (glibc only; nullptr = unset)
  const char* hostname = nullptr;     // for glibc's default domain
  uint32_t release = 0;               // the libc's (base.h); 0: the dialect's reference
};

// Reads `text` as `dialect` would; never fails: bad input ends as the libc
// would leave it, with warnings set.
void parse_conf(Dialect dialect, const char* text, size_t len, const ConfEnv& env, Config& out);

}  // namespace rk8s
