// SPDX-License-Identifier: Apache-2.0
/* The freestanding proof: a C program linked statically against musl and
 * the core archive, with no C++ runtime. Parses a kubelet resolv.conf in
 * the musl dialect and checks the plans for a short and a dotted name. */
#include <stdio.h>
#include <string.h>

#include "resolv-k8s.h"

static const char conf_text[] =
    "search default.svc.cluster.local svc.cluster.local cluster.local\n"
    "nameserver 10.96.0.10\n"
    "options ndots:5\n";

static int expect_plan(const rk8s_conf *c, const char *name, const char *want) {
  char got[1024];
  size_t n = rk8s_plan(c, name, got, sizeof got);
  if (n == strlen(want) && strcmp(got, want) == 0) return 0;
  fprintf(stderr, "probe: plan for %s:\n%s-- want:\n%s", name, got, want);
  return 1;
}

int main(void) {
  static _Alignas(16) char mem[16384];
  if (rk8s_conf_size() > sizeof mem || rk8s_conf_align() > 16) {
    fprintf(stderr, "probe: rk8s_conf needs %zu bytes\n", rk8s_conf_size());
    return 1;
  }
  rk8s_conf *c = rk8s_conf_parse(mem, sizeof mem, RK8S_DIALECT_MUSL, conf_text, strlen(conf_text),
                                 NULL, NULL, NULL);
  if (!c || rk8s_conf_ndots(c) != 5 || rk8s_conf_nameserver_count(c) != 1) {
    fprintf(stderr, "probe: resolv.conf not read as expected\n");
    return 1;
  }
  int bad = expect_plan(c, "web",
                        "web.default.svc.cluster.local.\n"
                        "web.svc.cluster.local.\n"
                        "web.cluster.local.\n"
                        "web.\n"
                        "autopath: default.svc.cluster.local. svc.cluster.local. cluster.local. .\n");
  bad |= expect_plan(c, "www.example.com",
                     "www.example.com.default.svc.cluster.local.\n"
                     "www.example.com.svc.cluster.local.\n"
                     "www.example.com.cluster.local.\n"
                     "www.example.com.\n"
                     "autopath: default.svc.cluster.local. svc.cluster.local. cluster.local. .\n");
  if (!bad) printf("probe: %s, musl static link ok\n", rk8s_version());
  return bad;
}
