// SPDX-License-Identifier: Apache-2.0
// resolv.conf, hosts, nsswitch.conf and host.conf as the lookups use them.
#include "files/files.h"

#include <fcntl.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "util/release.h"
#include "util/secure_env.h"

namespace rk8s {

const char* resolver_env(const char* name) {
#ifdef __GLIBC__
  return secure_env(name);
#else
  (void)name;
  return nullptr;
#endif
}

namespace {

// glibc does not look at resolv.conf again once it said no-reload.
bool parse_resolv_conf(Str text, Config& out) {
  char host[256] = {};
  ConfEnv e;
  e.release = libc_release();
  e.localdomain = resolver_env("LOCALDOMAIN");
  e.res_options = resolver_env("RES_OPTIONS");
  if (kLibc == Dialect::glibc && gethostname(host, sizeof host - 1) == 0) e.hostname = host;
  parse_conf(kLibc, text.data, text.size, e, out);
  return !out.opt.no_reload;
}

// glibc rereads nsswitch.conf when it changed (nss_database_check_reload);
// one it cannot read is no file.
bool parse_nsswitch(Str text, HostsSources& out) {
  out = nsswitch_hosts(text.data, text.size);
  return true;
}

constinit WatchedFile<Config> resolv_conf("/etc/resolv.conf", parse_resolv_conf, true);
constinit WatchedFile<HostsSources> nsswitch("/etc/nsswitch.conf", parse_nsswitch, false);

}  // namespace

void read_resolv_conf_from(const char* path) { resolv_conf.read_instead(path); }

void current_config(Config& out) {
  auto conf = resolv_conf.current();
  if (conf) {
    out = *conf;
    return;
  }
  out = Config{};
  out.complete = false;
}

HostsFile::HostsFile()
    : fd_(open("/etc/hosts", O_RDONLY | O_CLOEXEC)),
      buf_(fd_ >= 0 ? static_cast<char*>(malloc(kHostsBuffer)) : nullptr),
      // Out of memory: a buffer of nothing, which fails the reading.
      lines_(fd_, buf_, buf_ ? kHostsBuffer : 0) {}

HostsFile::~HostsFile() {
  free(buf_);
  if (fd_ >= 0) close(fd_);
}

HostsSources current_hosts_sources() {
  auto sources = nsswitch.current();
  return sources ? *sources : HostsSources::libc;  // out of memory
}

namespace {

bool multi;
Once multi_once;

// glibc reads host.conf once per process: `multi on|off`, the last line
// wins; RESOLV_MULTI overrides it.
void read_host_conf() {
  FileBytes f;
  if (read_file("/etc/host.conf", f)) {
    for (char* line = f.data; line && *line;) {
      char* end = strchr(line, '\n');
      if (end) *end = 0;
      char* p = line;
      while (*p == ' ' || *p == '\t') p++;
      if (strncmp(p, "multi", 5) == 0 && (p[5] == ' ' || p[5] == '\t')) {
        p += 5;
        while (*p == ' ' || *p == '\t') p++;
        multi = strncasecmp(p, "on", 2) == 0;
      }
      line = end ? end + 1 : nullptr;
    }
    free(f.data);
  }
  if (const char* v = resolver_env("RESOLV_MULTI")) multi = strcasecmp(v, "on") == 0;
}

}  // namespace

bool hosts_multi() {
  multi_once.run(read_host_conf);
  return multi;
}

}  // namespace rk8s
