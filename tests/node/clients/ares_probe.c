// SPDX-License-Identifier: Apache-2.0
/* ares-probe NAME...: c-ares's own search walk (ares_getaddrinfo, AF_UNSPEC,
 * the channel reading /etc/resolv.conf), one line per name: the addresses
 * sorted, or the status. The name c-ares reports is left out: it is the
 * name of the query that answered, on the marker path the marker name (a
 * difference README lists). */
#include <arpa/inet.h>
#include <ares.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

static int by_text(const void* a, const void* b) { return strcmp(a, b); }

static void done(void* arg, int status, int timeouts, struct ares_addrinfo* res) {
  (void)timeouts;
  const char* name = arg;
  if (status != ARES_SUCCESS) {
    printf("%s: %s\n", name, ares_strerror(status));
    return;
  }
  char addrs[64][INET6_ADDRSTRLEN];
  int n = 0;
  for (struct ares_addrinfo_node* a = res->nodes; a && n < 64; a = a->ai_next) {
    const void* p = a->ai_family == AF_INET ? (void*)&((struct sockaddr_in*)a->ai_addr)->sin_addr
                                            : (void*)&((struct sockaddr_in6*)a->ai_addr)->sin6_addr;
    inet_ntop(a->ai_family, p, addrs[n++], INET6_ADDRSTRLEN);
  }
  qsort(addrs, (size_t)n, sizeof addrs[0], by_text);
  printf("%s:", name);
  for (int i = 0; i < n; i++) printf(" %s", addrs[i]);
  printf("\n");
  ares_freeaddrinfo(res);
}

int main(int argc, char** argv) {
  ares_library_init(ARES_LIB_INIT_ALL);
  for (int i = 1; i < argc; i++) {
    ares_channel channel;
    if (ares_init(&channel) != ARES_SUCCESS) return 1;
    struct ares_addrinfo_hints hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    ares_getaddrinfo(channel, argv[i], NULL, &hints, done, argv[i]);
    for (;;) {
      fd_set r, w;
      FD_ZERO(&r);
      FD_ZERO(&w);
      int nfds = ares_fds(channel, &r, &w);
      if (nfds == 0) break;
      struct timeval tv, *t = ares_timeout(channel, NULL, &tv);
      select(nfds, &r, &w, NULL, t);
      ares_process(channel, &r, &w);
    }
    ares_destroy(channel);
  }
  return 0;
}
