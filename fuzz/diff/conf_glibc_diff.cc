// SPDX-License-Identifier: Apache-2.0
// Differential: glibc's res_ninit on a fresh state against our
// parse_conf(glibc), each input written as /etc/resolv.conf with the
// environment and host name it names (fdiff::ConfInput: leading
// LOCALDOMAIN=, RES_OPTIONS=, HOSTNAME= lines, then the file). Both are
// printed as tests/conf-oracle prints them (nameservers with their scope,
// search list, ndots, timeout, attempts, every option bit) and must match.
// Not compared: a search list beyond our limits (the library hands such a
// lookup to libc whole) and one glibc aborts on (README).
#include <resolv.h>
#include <unistd.h>

#include "fuzz/diff/harness.h"
#include "tests/conf-oracle/conf_text.h"
#include "tests/conf-oracle/glibc_state.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fdiff::enter_sandbox(fdiff::kUts);
  return 0;
}

static void set_env(const char* name, bool set, const char* value) {
  if (set)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fdiff::ConfInput in;
  in = fdiff::ConfInput{};
  fdiff::split_conf_input(rk8s::Str{reinterpret_cast<const char*>(data), size}, in);
  fdiff::put_etc(fdiff::kResolvConf, in.file);
  set_env("LOCALDOMAIN", in.has_localdomain, in.localdomain);
  set_env("RES_OPTIONS", in.has_res_options, in.res_options);
  if (sethostname(in.hostname, strlen(in.hostname)) != 0) abort();

  static rk8s::Config ours;
  rk8s::ConfEnv env{in.has_localdomain ? in.localdomain : nullptr,
                    in.has_res_options ? in.res_options : nullptr, in.hostname};
  rk8s::parse_conf(rk8s::Dialect::glibc, in.file.data, in.file.size, env, ours);
  // README's deliberate differences this target meets, by their words.
  if (!ours.complete)
    return fdiff::tolerate("a resolv.conf beyond 64 search domains or 4096 bytes of them"), 0;
  if (fdiff::glibc_res_init_aborts(ours))
    return fdiff::tolerate("a search list glibc 2.36 aborts on in res_init"), 0;

  // glibc takes two empty files for the same (io/file_change_detection.c)
  // and keeps the last configuration, environment included: an empty file
  // must follow one that is not.
  static struct __res_state st;
  if (in.file.size == 0) {
    fdiff::put_etc(fdiff::kResolvConf, "\n");
    memset(&st, 0, sizeof st);
    if (res_ninit(&st) != 0) abort();
    res_nclose(&st);
    fdiff::put_etc(fdiff::kResolvConf, in.file);
  }
  memset(&st, 0, sizeof st);
  if (res_ninit(&st) != 0) abort();
  char* libc = fdiff::text_of([](FILE* f) {
    if (print_glibc_state(f, &st) != 0) abort();
  });
  res_nclose(&st);
  char* mine = fdiff::text_of([](FILE* f) { print_conf(f, ours); });
  if (strcmp(libc, mine) != 0) fdiff::diverged("resolv.conf", libc, mine);
  free(libc);
  free(mine);
  return 0;
}
