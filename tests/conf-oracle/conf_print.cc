// SPDX-License-Identifier: Apache-2.0
// Prints what parse_conf(glibc) makes of /etc/resolv.conf, the environment
// and the host name, in the form glibc_res prints glibc's own reading.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "tests/conf-oracle/conf_text.h"

int main() {
  std::string text;
  if (FILE* f = fopen("/etc/resolv.conf", "rb")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    fclose(f);
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  rk8s::ConfEnv env{getenv("LOCALDOMAIN"), getenv("RES_OPTIONS"), host};
  static rk8s::Config c;
  rk8s::parse_conf(rk8s::Dialect::glibc, text.data(), text.size(), env, c);
  print_conf(stdout, c);
  if (!c.complete) fprintf(stderr, "conf_print: search list over our limits\n");
  return 0;
}
