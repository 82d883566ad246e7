// SPDX-License-Identifier: Apache-2.0
/* res-probe NAME...: glibc's res_search (libresolv), A only, which walks the
 * search list as getaddrinfo does (PHP's dns_get_record, mongodb+srv): one
 * line per name, the answer's owner names and addresses sorted, or h_errno. */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void* a, const void* b) { return strcmp(a, b); }

int main(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    unsigned char answer[4096];
    int len = res_search(argv[i], ns_c_in, ns_t_a, answer, sizeof answer);
    if (len < 0) {
      printf("%s: h_errno %d\n", argv[i], h_errno);
      continue;
    }
    ns_msg msg;
    if (ns_initparse(answer, len, &msg) < 0) {
      printf("%s: unparsable\n", argv[i]);
      continue;
    }
    char lines[64][300];
    int n = 0;
    for (int r = 0; r < ns_msg_count(msg, ns_s_an) && n < 64; r++) {
      ns_rr rr;
      if (ns_parserr(&msg, ns_s_an, r, &rr) < 0 || ns_rr_type(rr) != ns_t_a) continue;
      char addr[INET_ADDRSTRLEN];
      inet_ntop(AF_INET, ns_rr_rdata(rr), addr, sizeof addr);
      snprintf(lines[n++], sizeof lines[0], "%s", addr);
    }
    qsort(lines, (size_t)n, sizeof lines[0], by_text);
    printf("%s:", argv[i]);
    for (int k = 0; k < n; k++) printf(" %s", lines[k]);
    printf("\n");
  }
  return 0;
}
