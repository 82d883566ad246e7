// SPDX-License-Identifier: Apache-2.0
// parse_conf on any bytes. Byte 0: bit 0 picks musl, bit 1 says three
// environment strings follow (LOCALDOMAIN, RES_OPTIONS, host name), each a
// length byte then its bytes; the rest is the file.
#include <stdlib.h>

#include <string>

#include "conf/resolv_conf.h"

using namespace rk8s;

static bool take_string(const uint8_t*& p, const uint8_t* end, std::string& out) {
  if (p == end) return false;
  size_t n = *p++;
  if (n > size_t(end - p)) n = size_t(end - p);
  out.assign(reinterpret_cast<const char*>(p), n);
  out.resize(strlen(out.c_str()));  // what getenv() could hand us
  p += n;
  return true;
}

static void check(bool ok) {
  if (!ok) abort();
}

static void check_invariants(const Config& c, Dialect d) {
  bool musl = d == Dialect::musl;
  check(c.dialect == d);
  check(c.ns.count >= 1 && c.ns.count <= kMaxNameservers);
  for (const IpAddr& ns : c.ns) check(ns.family == 2 || ns.family == 10);  // AF_INET, AF_INET6
  check(c.search_start.count == c.search_len.count && c.search_count() <= kMaxSearch);
  size_t end = 0;
  for (size_t i = 0; i < c.search_count(); i++) {
    check(c.search_len[i] > 0 && c.search_start[i] == end);
    end += c.search_len[i];
    check(end <= kSearchBytes);
    Str s = c.search(i);
    for (size_t j = 0; j < s.size; j++) {
      char ch = s.data[j];
      check(ch != '\0');
      if (musl) check(ch != ' ' && (ch < '\t' || ch > '\r'));
    }
  }
  const Options& o = c.opt;
  check(o.ndots <= 15 && o.timeout <= (musl ? 60 : 30) && o.attempts <= (musl ? 10 : 5));
  check(!musl || o.attempts >= 1);
  check((o.attempts == 0) <= bool(c.warnings & kWarnAttemptsZero));
  check(o.autopath_code >= autopath::kMinCode && o.autopath_code <= autopath::kMaxCode);
  check(c.complete == !(c.warnings & kWarnTooLarge));
  check((c.warnings & ~uint32_t(2 * kWarnTooLarge - 1)) == 0);
  check(musl || !(c.warnings & kWarnLongLine));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t* p = data + 1;
  const uint8_t* end = data + size;
  Dialect d = data[0] & 1 ? Dialect::musl : Dialect::glibc;
  std::string local, options, host;
  ConfEnv env;
  if (data[0] & 2 && take_string(p, end, local) && take_string(p, end, options) && take_string(p, end, host))
    env = ConfEnv{local.c_str(), options.c_str(), host.c_str()};
  // The file's bytes in a buffer of their own, so ASan sees any overread.
  size_t len = size_t(end - p);
  char* text = static_cast<char*>(malloc(len ? len : 1));
  memcpy(text, p, len);
  static Config c;
  parse_conf(d, text, len, env, c);
  check_invariants(c, d);
  free(text);
  return 0;
}
