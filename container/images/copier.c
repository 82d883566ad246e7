// SPDX-License-Identifier: Apache-2.0
/* The init image's entrypoint: copies the preload libraries and the static
 * `resolv-k8s` into the directory the pod shares with its app containers
 * (default /target), keeping the glibc/, musl/ and bin/ folders, and lays
 * the links that make one LD_PRELOAD value right for every libc;
 * `--links DIR` lays the links alone (the build tree, make install);
 * --version prints the version. Static, so the image needs nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resolv-k8s.h"

static const char *const kFiles[] = {"glibc/libresolv-k8s.so", "musl/libresolv-k8s.so", "bin/resolv-k8s"};

/* inject writes LD_PRELOAD=/opt/resolv-k8s/$LIB/libresolv-k8s.so. glibc's
 * loader expands $LIB to its own library directory, which differs by
 * distribution; musl's loader takes the path as it is. A glibc whose $LIB
 * is none of these finds no file and says so in one line, then runs as
 * it would without us. */
static const struct {
  const char *path, *target;
} kLinks[] = {
    {"$LIB/libresolv-k8s.so", "../musl/libresolv-k8s.so"},
    {"lib/x86_64-linux-gnu/libresolv-k8s.so", "../../glibc/libresolv-k8s.so"},  /* Debian, Ubuntu */
    {"lib/aarch64-linux-gnu/libresolv-k8s.so", "../../glibc/libresolv-k8s.so"},
    {"lib64/libresolv-k8s.so", "../glibc/libresolv-k8s.so"}, /* RHEL, Fedora, SUSE, Amazon Linux */
    {"lib/libresolv-k8s.so", "../glibc/libresolv-k8s.so"},   /* Arch, Wolfi, NixOS */
};

static int fail(const char *what) {
  fprintf(stderr, "resolv-k8s-init: %s: %s\n", what, strerror(errno));
  return 0;
}

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

/* The folders of target/path, made as needed. */
static int make_parents(const char *target, const char *path) {
  char dir[4096];
  for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
    snprintf(dir, sizeof dir, "%s/%.*s", target, (int)(slash - path), path);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return fail(dir);
  }
  return 1;
}

/* A link replaces what an earlier run left (the init container runs again
 * on every pod restart, over the same volume). */
static int lay_links(const char *target) {
  for (size_t i = 0; i < sizeof kLinks / sizeof *kLinks; i++) {
    char link[4096];
    snprintf(link, sizeof link, "%s/%s", target, kLinks[i].path);
    if (!make_parents(target, kLinks[i].path)) return 0;
    if (unlink(link) != 0 && errno != ENOENT) return fail(link);
    if (symlink(kLinks[i].target, link) != 0) return fail(link);
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    puts("resolv-k8s-init " RK8S_VERSION);
    return 0;
  }
  if (argc > 2 && strcmp(argv[1], "--links") == 0) return lay_links(argv[2]) ? 0 : 1;
  const char *target = argc > 1 ? argv[1] : "/target";
  for (size_t i = 0; i < sizeof kFiles / sizeof *kFiles; i++) {
    char from[256], to[4096];
    snprintf(from, sizeof from, "/resolv-k8s/%s", kFiles[i]);
    snprintf(to, sizeof to, "%s/%s", target, kFiles[i]);
    if (!make_parents(target, kFiles[i]) || !copy(from, to)) return 1;
    printf("resolv-k8s-init: %s\n", to);
  }
  if (!lay_links(target)) return 1;
  printf("resolv-k8s-init: %s/$LIB/libresolv-k8s.so for glibc and musl\n", target);
  return 0;
}
