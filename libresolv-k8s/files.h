// The files a lookup reads, read when the replaced libc reads them:
// resolv.conf and nsswitch.conf are reparsed when they changed (glibc stats
// them on every lookup; musl rereads resolv.conf: the same answers),
// /etc/hosts is read on every lookup, host.conf once.
#pragma once

#include "conf.h"
#include "nsswitch.h"

namespace rk8s {

// The dialect of the libc this copy of the core was compiled against.
#ifdef __GLIBC__
constexpr Dialect kLibc = Dialect::glibc;
#else
constexpr Dialect kLibc = Dialect::musl;
#endif

// A whole file in a malloc'd buffer (NUL-terminated); free() it.
struct FileBytes {
  char* data = nullptr;
  size_t size = 0;
};
// False when the file cannot be opened or read.
bool read_file(const char* path, FileBytes& out);

// The current /etc/resolv.conf (with LOCALDOMAIN, RES_OPTIONS and the
// hostname for glibc), copied into `out`.
void current_config(Config& out);

// glibc's `hosts:` line; musl has none.
HostsPlan current_hosts_plan();

// A resolver variable of the environment: glibc ignores them in setuid
// programs; musl reads none.
const char* resolver_env(const char* name);

// glibc: /etc/host.conf `multi on`, or RESOLV_MULTI in the environment.
bool hosts_multi();

}  // namespace rk8s
