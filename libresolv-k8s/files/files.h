// SPDX-License-Identifier: Apache-2.0
// The system files a lookup reads, each as the libc it replaces reads it.
// resolv.conf and nsswitch.conf are parsed again when they changed
// (watched_file.h): glibc stats them on every lookup, musl reads
// resolv.conf every time; the same answers, with a stat instead of open,
// read and close. /etc/hosts is read on every lookup, as both libcs read
// it, streamed. host.conf is read once, as glibc does.
#pragma once

#include "conf/resolv_conf.h"
#include "files/nsswitch.h"
#include "files/watched_file.h"
#include "util/line_reader.h"

namespace rk8s {

// The current /etc/resolv.conf (with LOCALDOMAIN, RES_OPTIONS and the
// hostname for glibc), as the running release (util/release.h) reads it,
// copied into `out`;
// not out.complete when the file exists but cannot be read now (then the
// libc answers).
void current_config(Config& out);

// `resolv-k8s lookup --conf FILE`: FILE read in place of /etc/resolv.conf,
// set before the first lookup.
void read_resolv_conf_from(const char* path);

// /etc/hosts opened for one reading, as glibc's nss_files and musl open it
// for every lookup, and read through a buffer of kHostsBuffer bytes: no
// copy of the file is kept, whatever its size. False when it cannot be
// opened (missing, unreadable, no descriptor left: the libc skips it
// then too). A line longer than the buffer fails the reading (glibc's
// lines have no limit): the libc answers then.
constexpr size_t kHostsBuffer = 16384;
class HostsFile {
 public:
  HostsFile();
  ~HostsFile();
  HostsFile(const HostsFile&) = delete;
  HostsFile& operator=(const HostsFile&) = delete;
  explicit operator bool() const { return fd_ >= 0; }
  LineReader& lines() { return lines_; }

 private:
  int fd_;
  char* buf_;
  LineReader lines_;
};

// glibc's `hosts:` line; musl has none.
HostsSources current_hosts_sources();

// A resolver variable of the environment: glibc ignores them in setuid
// programs; musl reads none.
const char* resolver_env(const char* name);

// glibc: /etc/host.conf `multi on`, or RESOLV_MULTI in the environment.
bool hosts_multi();

}  // namespace rk8s
