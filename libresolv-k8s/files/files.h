// SPDX-License-Identifier: Apache-2.0
// The system files a lookup reads, each as the libc it replaces reads it.
// resolv.conf and nsswitch.conf are parsed again, /etc/hosts read again,
// when they changed (watched_file.h): glibc stats the first two on every
// lookup and reads the others anew every time, musl reads all of them
// every time; the same answers, with a stat instead of open, read and
// close. host.conf is read once, as glibc does.
#pragma once

#include "conf/resolv_conf.h"
#include "files/nsswitch.h"
#include "files/watched_file.h"

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

// The current /etc/hosts, held while in scope; empty when the file is
// missing or cannot be read (then the libc skips it too).
using HostsText = WatchedFile<Str>::Ref;
HostsText current_hosts();

// glibc's `hosts:` line; musl has none.
HostsSources current_hosts_sources();

// A resolver variable of the environment: glibc ignores them in setuid
// programs; musl reads none.
const char* resolver_env(const char* name);

// glibc: /etc/host.conf `multi on`, or RESOLV_MULTI in the environment.
bool hosts_multi();

}  // namespace rk8s
