// SPDX-License-Identifier: Apache-2.0
/* plan_demo RESOLV_CONF NAME: the library's version, then the DNS plan for
 * NAME under RESOLV_CONF (glibc's reading), as a program using the
 * installed API writes it: memory of its own, sized by the library. */
#include <stdio.h>
#include <stdlib.h>

#include <resolv-k8s.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: plan_demo RESOLV_CONF NAME\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  char text[65536];
  size_t len = fread(text, 1, sizeof text, f);
  fclose(f);

  size_t align = rk8s_conf_align(), size = (rk8s_conf_size() + align - 1) / align * align;
  void *mem = aligned_alloc(align, size);
  rk8s_conf *c = rk8s_conf_parse(mem, size, RK8S_DIALECT_GLIBC, text, len, NULL, NULL, NULL);
  if (!c) return 1;
  /* Asked once for the length, then for the text. */
  size_t n = rk8s_plan(c, argv[2], NULL, 0);
  char *plan = malloc(n + 1);
  if (!plan) return 1;
  rk8s_plan(c, argv[2], plan, n + 1);
  printf("%s\n%s", rk8s_version(), plan);
  free(plan);
  free(mem);
  return 0;
}
