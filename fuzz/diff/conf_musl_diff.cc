// SPDX-License-Identifier: Apache-2.0
// Differential, musl side: musl 1.2.3's own resolv.conf reader
// (__get_resolv_conf, linked from the libc.a of this static driver) against
// our parse_conf(musl), on the conf_glibc_diff corpus and mutations of it
// (fdiff::replay_main). The environment lines of the framing are dropped:
// musl reads the file alone. Both sides are printed as tests/conf-oracle
// prints a Config, musl's search line split at white space as
// name_from_dns_search splits it.
#include <ctype.h>

#include "conf/search_list.h"
#include "fuzz/diff/harness.h"
#include "tests/conf-oracle/conf_text.h"

using namespace rk8s;

// musl's src/network/lookup.h.
struct address {
  int family;
  unsigned scopeid;
  uint8_t addr[16];
  int sortkey;
};
struct resolvconf {
  address ns[3];
  unsigned nns, attempts, ndots;
  unsigned timeout;
};
extern "C" int __get_resolv_conf(resolvconf* conf, char* search, size_t search_sz);

namespace {

// README "What differs from musl, and why", and "Calls the library
// hands to libc whole": the only differences tolerated, each by its words.
struct Exception {
  uint32_t warning;  // ours warns of it
  const char* readme;
};
const Exception kExceptions[] = {
    {kWarnLongLine, "a resolv.conf line over 255 bytes is read; musl skips it"},
    {kWarnTooLarge, "a resolv.conf beyond 64 search domains or 4096 bytes of them"},
};
// The third, "`attempts:0` does not crash (musl dies of SIGFPE)", is
// compared: musl's 0 must be our 1 with kWarnAttemptsZero.

void read_musl(Config& c, const Config& ours) {
  static resolvconf rc;
  char search[256];
  if (__get_resolv_conf(&rc, search, sizeof search) != 0) abort();
  c = Config{};
  c.dialect = Dialect::musl;
  c.opt.ndots = uint8_t(rc.ndots);
  c.opt.timeout = uint8_t(rc.timeout);
  c.opt.attempts = uint8_t(rc.attempts);
  if (rc.attempts == 0 && (ours.warnings & kWarnAttemptsZero)) c.opt.attempts = 1;
  for (unsigned i = 0; i < rc.nns; i++) {
    IpAddr a;
    a.family = uint8_t(rc.ns[i].family);
    memcpy(a.addr, rc.ns[i].addr, a.family == AF_INET ? 4 : 16);
    a.scope_id = rc.ns[i].scopeid;
    c.ns.push(a);
  }
  for (char *p = search, *z; *p; p = z) {
    while (isspace(static_cast<unsigned char>(*p))) p++;
    for (z = p; *z && !isspace(static_cast<unsigned char>(*z)); z++) {
    }
    if (z != p) conf::search_add(c, Str{p, size_t(z - p)});
  }
}

void run_one(const uint8_t* data, size_t size) {
  fdiff::ConfInput in;
  fdiff::split_conf_input(Str{reinterpret_cast<const char*>(data), size}, in);
  fdiff::put_etc(fdiff::kResolvConf, in.file);
  static Config ours, musl;
  parse_conf(Dialect::musl, in.file.data, in.file.size, ConfEnv{}, ours);
  read_musl(musl, ours);
  char* libc = fdiff::text_of([](FILE* f) { print_conf(f, musl); });
  char* mine = fdiff::text_of([](FILE* f) { print_conf(f, ours); });
  bool same = strcmp(libc, mine) == 0;
  for (const Exception& e : kExceptions)
    if (!same && (ours.warnings & e.warning)) {
      fdiff::tolerate(e.readme);
      same = true;
    }
  if (!same) fdiff::diverged("resolv.conf (musl)", libc, mine);
  free(libc);
  free(mine);
}

}  // namespace

int main(int argc, char** argv) {
  fdiff::enter_sandbox(0);
  return fdiff::replay_main(argc, argv, run_one);
}
