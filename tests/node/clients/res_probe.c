// SPDX-License-Identifier: Apache-2.0
/* res-probe [-t a|srv] NAME...: glibc's res_search (libresolv), type A (or
 * SRV with -t srv), which walks the search list as getaddrinfo does (PHP's
 * dns_get_record, mongodb+srv): one line per name, the answer's records of
 * that type sorted (A: the address; SRV: "PRIORITY WEIGHT PORT TARGET"),
 * or h_errno. Exit status 0, or 2 for a bad command line. */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_text(const void* a, const void* b) { return strcmp(a, b); }

// RR's data as text, or 0 when it does not parse.
static int text_of(const ns_msg* msg, ns_rr rr, char* out, size_t size) {
  if (ns_rr_type(rr) == ns_t_a) return inet_ntop(AF_INET, ns_rr_rdata(rr), out, (socklen_t)size) != NULL;
  const unsigned char* rd = ns_rr_rdata(rr);
  char target[NS_MAXDNAME];
  if (ns_rr_rdlen(rr) < 7 ||
      dn_expand(ns_msg_base(*msg), ns_msg_end(*msg), rd + 6, target, sizeof target) < 0)
    return 0;
  snprintf(out, size, "%u %u %u %s", ns_get16(rd), ns_get16(rd + 2), ns_get16(rd + 4), target);
  return 1;
}

int main(int argc, char** argv) {
  ns_type type = ns_t_a;
  int opt;
  while ((opt = getopt(argc, argv, "t:")) != -1) {
    if (opt == 't' && strcmp(optarg, "a") == 0)
      type = ns_t_a;
    else if (opt == 't' && strcmp(optarg, "srv") == 0)
      type = ns_t_srv;
    else {
      fprintf(stderr, "usage: res-probe [-t a|srv] NAME...\n");
      return 2;
    }
  }
  for (int i = optind; i < argc; i++) {
    unsigned char answer[4096];
    int len = res_search(argv[i], ns_c_in, type, answer, sizeof answer);
    if (len < 0) {
      printf("%s: h_errno %d\n", argv[i], h_errno);
      continue;
    }
    ns_msg msg;
    if (ns_initparse(answer, len, &msg) < 0) {
      printf("%s: unparsable\n", argv[i]);
      continue;
    }
    char lines[64][NS_MAXDNAME + 24];
    int n = 0;
    for (int r = 0; r < ns_msg_count(msg, ns_s_an) && n < 64; r++) {
      ns_rr rr;
      if (ns_parserr(&msg, ns_s_an, r, &rr) < 0 || ns_rr_type(rr) != type) continue;
      if (!text_of(&msg, rr, lines[n], sizeof lines[0])) {
        printf("%s: unparsable\n", argv[i]);
        n = -1;
        break;
      }
      n++;
    }
    if (n < 0) continue;
    qsort(lines, (size_t)n, sizeof lines[0], by_text);
    printf("%s:", argv[i]);
    for (int k = 0; k < n; k++) printf(" %s", lines[k]);
    printf("\n");
  }
  return 0;
}
