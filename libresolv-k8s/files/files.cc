#include "files/files.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rk8s {

// /etc/hosts as last read, shared by the lookups using it; guarded by
// `guard`, and freed by whoever drops the last reference.
struct HostsText::Copy {
  int refs;
  FileBytes bytes;
};

namespace {

struct Identity {
  dev_t dev;
  ino_t ino;
  off_t size;
  timespec mtime;
  timespec ctime;
  bool exists;
};

bool same_identity(const Identity& a, const Identity& b) {
  return a.exists == b.exists && a.dev == b.dev && a.ino == b.ino && a.size == b.size &&
         a.mtime.tv_sec == b.mtime.tv_sec && a.mtime.tv_nsec == b.mtime.tv_nsec &&
         a.ctime.tv_sec == b.ctime.tv_sec && a.ctime.tv_nsec == b.ctime.tv_nsec;
}

Identity identity_of(const char* path) {
  Identity id{};
  struct stat st;
  if (stat(path, &st) != 0) return id;
  id = Identity{st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim, true};
  return id;
}

// The parsed file and what it was parsed from; guarded by `guard`.
Config cached;
Identity cached_id;
bool loaded;
SpinLock guard;

void parse(const Identity& id) {
  FileBytes f;
  bool ok = id.exists && read_file("/etc/resolv.conf", f);
  if (id.exists && !ok) {
    // Out of descriptors, say: the libc fails the lookup its own way, and
    // the next lookup reads the file again.
    cached = Config{};
    cached.complete = false;
    loaded = false;
    return;
  }
  char host[256] = {};
  ConfEnv e;
  e.localdomain = resolver_env("LOCALDOMAIN");
  e.res_options = resolver_env("RES_OPTIONS");
  if (kLibc == Dialect::glibc && gethostname(host, sizeof host - 1) == 0) e.hostname = host;
  parse_conf(kLibc, ok ? f.data : "", ok ? f.size : 0, e, cached);
  free(f.data);
  cached_id = id;
  loaded = true;
}

}  // namespace

const char* resolver_env(const char* name) {
#ifdef __GLIBC__
  return secure_getenv(name);
#else
  (void)name;
  return nullptr;
#endif
}

bool read_file(const char* path, FileBytes& out) {
  out = FileBytes{};
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  size_t cap = 4096;
  char* buf = static_cast<char*>(malloc(cap + 1));
  size_t len = 0;
  while (buf) {
    if (len == cap) {
      char* bigger = static_cast<char*>(realloc(buf, cap * 2 + 1));
      if (!bigger) break;
      buf = bigger;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) break;
    if (n == 0) {
      close(fd);
      buf[len] = 0;
      out = FileBytes{buf, len};
      return true;
    }
    len += size_t(n);
  }
  free(buf);
  close(fd);
  return false;
}

namespace {

using HostsCopy = HostsText::Copy;
HostsCopy* hosts;
Identity hosts_id;
bool hosts_loaded;

void drop(HostsCopy* c) {
  if (c && --c->refs == 0) {
    free(c->bytes.data);
    free(c);
  }
}

// A child forked while another thread held the lock must not wait for it,
// nor trust what that thread was writing.
void forget_in_child() {
  guard = SpinLock{};
  loaded = false;
  hosts = nullptr;
  hosts_loaded = false;
}

pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
void register_atfork() { pthread_atfork(nullptr, nullptr, forget_in_child); }

void lock_files() {
  pthread_once(&atfork_once, register_atfork);
  guard.lock();
}

}  // namespace

void current_config(Config& out) {
  lock_files();
  if (!loaded || !cached.opt.no_reload) {
    Identity id = identity_of("/etc/resolv.conf");
    if (!loaded || !same_identity(id, cached_id)) parse(id);
  }
  out = cached;
  guard.unlock();
}

HostsText::HostsText() {
  Identity id = identity_of("/etc/hosts");
  lock_files();
  if (!hosts_loaded || !same_identity(id, hosts_id)) {
    drop(hosts);
    hosts = nullptr;
    FileBytes f;
    if (id.exists && read_file("/etc/hosts", f)) {
      hosts = static_cast<HostsCopy*>(malloc(sizeof *hosts));
      if (hosts) *hosts = HostsCopy{1, f};
      else free(f.data);
    }
    // A file that exists but cannot be read now (no descriptor left) is
    // tried again by the next lookup.
    hosts_loaded = hosts || !id.exists;
    hosts_id = id;
  }
  copy_ = hosts;
  if (copy_) copy_->refs++;
  guard.unlock();
}

HostsText::~HostsText() {
  if (!copy_) return;
  lock_files();
  drop(copy_);
  guard.unlock();
}

Str HostsText::text() const { return Str{copy_->bytes.data, copy_->bytes.size}; }

// glibc rereads nsswitch.conf when it changed (nss_database_check_reload).
HostsPlan current_hosts_plan() {
  static Identity plan_id;
  static HostsPlan plan;
  static bool plan_loaded;
  Identity id = identity_of("/etc/nsswitch.conf");
  lock_files();
  if (!plan_loaded || !same_identity(id, plan_id)) {
    FileBytes f;
    bool ok = id.exists && read_file("/etc/nsswitch.conf", f);
    plan = ok ? nsswitch_hosts(f.data, f.size) : nsswitch_hosts(nullptr, 0);
    free(f.data);
    plan_id = id;
    plan_loaded = true;
  }
  HostsPlan p = plan;
  guard.unlock();
  return p;
}

namespace {

bool multi;
pthread_once_t multi_once = PTHREAD_ONCE_INIT;

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
  pthread_once(&multi_once, read_host_conf);
  return multi;
}

}  // namespace rk8s
