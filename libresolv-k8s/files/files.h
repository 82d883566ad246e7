// The files a lookup reads. resolv.conf and nsswitch.conf are reparsed,
// /etc/hosts reread, when they changed: glibc stats the first two on every
// lookup and reads the others anew every time, musl rereads all; the same
// answers, with a stat instead of open, read and close. host.conf is read
// once, as glibc does.
#pragma once

#include "conf/resolv_conf.h"
#include "files/nsswitch.h"

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

// The current /etc/hosts, held while in scope. Not ok() when the file is
// missing or cannot be read (then the libc skips it too).
class HostsText {
 public:
  HostsText();
  ~HostsText();
  HostsText(const HostsText&) = delete;
  HostsText& operator=(const HostsText&) = delete;
  bool ok() const { return copy_ != nullptr; }
  Str text() const;

  struct Copy;  // files.cc's shared copy of the file

 private:
  Copy* copy_;
};

// glibc's `hosts:` line; musl has none.
HostsPlan current_hosts_plan();

// A resolver variable of the environment: glibc ignores them in setuid
// programs; musl reads none.
const char* resolver_env(const char* name);

// glibc: /etc/host.conf `multi on`, or RESOLV_MULTI in the environment.
bool hosts_multi();

}  // namespace rk8s
