// SPDX-License-Identifier: Apache-2.0
// The public C API on any resolv.conf and name. Byte 0: bits 0-1 the
// dialect (2 and 3 are unknown: the parse must refuse them), bit 2 says
// LOCALDOMAIN, RES_OPTIONS and the host name follow the name, bits 3-4 the
// family; byte 1 the capacity of the output buffers; then the name and
// those strings, each ending at a NUL; the rest is the file. Every text
// function, cut short by the capacity, must count the whole text (as
// snprintf) and leave a NUL-terminated start of it.
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <string>

#include "resolv-k8s.h"

static void check(bool ok) {
  if (!ok) abort();
}

// The bytes up to the next NUL (or the end), and past it.
static std::string take_cstring(const uint8_t*& p, const uint8_t* end) {
  const uint8_t* nul = static_cast<const uint8_t*>(memchr(p, 0, size_t(end - p)));
  std::string s(reinterpret_cast<const char*>(p), size_t((nul ? nul : end) - p));
  p = nul ? nul + 1 : end;
  return s;
}

// `write(out, cap)` is one rk8s_* text function; returns its whole text.
template <class Write>
static std::string check_text(size_t cap, Write write) {
  size_t n = write(nullptr, 0);
  char* full = static_cast<char*>(malloc(n + 1));
  check(write(full, n + 1) == n && strlen(full) == n);
  // Exactly `cap` bytes: ASan sees a write past them.
  char* part = static_cast<char*>(malloc(cap));
  check(write(part, cap) == n);
  size_t kept = n < cap ? n : cap - 1;
  if (cap) check(part[kept] == 0 && memcmp(part, full, kept) == 0);
  std::string whole(full, n);
  free(part);
  free(full);
  return whole;
}

// `item(i, out, cap)` writes item i of a list of `count`: text below
// `count`, the empty string at it.
template <class Item>
static void check_list(size_t count, size_t cap, Item item) {
  for (size_t i = 0; i <= count; i++)
    check(check_text(cap, [&](char* o, size_t k) { return item(i, o, k); }).empty() == (i == count));
}

static void check_plan(const rk8s_conf* c, const char* name, int family, size_t cap) {
  std::string plan = check_text(cap, [&](char* o, size_t k) { return rk8s_plan(c, name, o, k); });
  int error = rk8s_plan_error(c, name);
  size_t count = rk8s_plan_candidate_count(c, name);
  check(error == 0 || error == EAI_NONAME);
  check((count > 0) == (rk8s_conf_complete(c) && error == 0));
  check_list(count, cap, [&](size_t i, char* o, size_t k) { return rk8s_plan_candidate(c, name, i, o, k); });
  size_t lines = 0;
  for (char ch : plan) lines += ch == '\n';
  check(lines == count + 1);

  std::string suffixes =
      check_text(cap, [&](char* o, size_t k) { return rk8s_autopath_suffixes(c, name, o, k); });
  check(suffixes.empty() || (rk8s_conf_autopath(c) && count >= 2));
  unsigned flags = rk8s_autopath_flags(c, family);
  unsigned past_nodata = rk8s_conf_dialect(c) == RK8S_DIALECT_GLIBC ? RK8S_AUTOPATH_PAST_NODATA : 0;
  check((flags & ~RK8S_AUTOPATH_PAIRED) == (RK8S_AUTOPATH_Q | RK8S_AUTOPATH_STOP_ON_EXISTS | past_nodata));
  check(!(flags & RK8S_AUTOPATH_PAIRED) || family == AF_UNSPEC);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  int dialect = data[0] & 3;
  const int families[] = {AF_UNSPEC, AF_INET, AF_INET6, 12345};
  int family = families[data[0] >> 3 & 3];
  size_t cap = data[1];
  const uint8_t* p = data + 2;
  const uint8_t* end = data + size;
  std::string name = take_cstring(p, end), localdomain, res_options, hostname;
  bool env = data[0] & 4;
  if (env) localdomain = take_cstring(p, end), res_options = take_cstring(p, end), hostname = take_cstring(p, end);

  // The file and the conf in buffers of their own size, so ASan sees any overread.
  size_t len = size_t(end - p);
  char* text = static_cast<char*>(malloc(len));
  memcpy(text, p, len);
  void* mem = nullptr;
  check(posix_memalign(&mem, rk8s_conf_align(), rk8s_conf_size()) == 0);
  rk8s_conf* c = rk8s_conf_parse(mem, rk8s_conf_size(), dialect, text, len, env ? localdomain.c_str() : nullptr,
                                 env ? res_options.c_str() : nullptr, env ? hostname.c_str() : nullptr);
  free(text);
  check((c != nullptr) == (dialect == RK8S_DIALECT_GLIBC || dialect == RK8S_DIALECT_MUSL));
  if (c) {
    check(rk8s_conf_dialect(c) == dialect);
    check(!rk8s_conf_complete(c) == bool(rk8s_conf_warnings(c) & RK8S_WARN_TOO_LARGE));
    check(rk8s_conf_autopath(c) <= 1 && rk8s_conf_options(c) < 2 * RK8S_OPT_NO_AAAA);
    (void)rk8s_conf_ndots(c), (void)rk8s_conf_timeout(c), (void)rk8s_conf_attempts(c);
    (void)rk8s_conf_autopath_code(c);
    check_list(rk8s_conf_nameserver_count(c), cap,
               [&](size_t i, char* o, size_t k) { return rk8s_conf_nameserver(c, i, o, k); });
    check_list(rk8s_conf_search_count(c), cap,
               [&](size_t i, char* o, size_t k) { return rk8s_conf_search(c, i, o, k); });
    check_plan(c, name.c_str(), family, cap);
  }
  free(mem);
  return 0;
}
