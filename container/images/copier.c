// SPDX-License-Identifier: Apache-2.0
/* The init image's entrypoint: copies the preload libraries and the static
 * `resolv-k8s` into the directory the pod shares with its app containers
 * (default /target), keeping the glibc/, musl/ and bin/ folders; --version
 * prints the version. Static, so the image needs nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resolv-k8s.h"

static const char *const kFiles[] = {"glibc/libresolv-k8s.so", "musl/libresolv-k8s.so", "bin/resolv-k8s"};

static int copy(const char *from, const char *to) {
  int in = open(from, O_RDONLY | O_CLOEXEC);
  int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  char buf[65536];
  ssize_t n = 0;
  while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
    if (write(out, buf, (size_t)n) != n) n = -1;
  int ok = in >= 0 && out >= 0 && n == 0;
  if (!ok) fprintf(stderr, "resolv-k8s-init: %s -> %s: %s\n", from, to, strerror(errno));
  if (in >= 0) close(in);
  if (out >= 0 && close(out) != 0) ok = 0;
  return ok;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    puts("resolv-k8s-init " RK8S_VERSION);
    return 0;
  }
  const char *target = argc > 1 ? argv[1] : "/target";
  for (size_t i = 0; i < sizeof kFiles / sizeof *kFiles; i++) {
    char from[256], to[4096], dir[4096];
    snprintf(from, sizeof from, "/resolv-k8s/%s", kFiles[i]);
    snprintf(to, sizeof to, "%s/%s", target, kFiles[i]);
    snprintf(dir, sizeof dir, "%s/%.*s", target, (int)(strchr(kFiles[i], '/') - kFiles[i]), kFiles[i]);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
      fprintf(stderr, "resolv-k8s-init: %s: %s\n", dir, strerror(errno));
      return 1;
    }
    if (!copy(from, to)) return 1;
    printf("resolv-k8s-init: %s\n", to);
  }
  return 0;
}
