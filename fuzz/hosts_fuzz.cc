// SPDX-License-Identifier: Apache-2.0
// hosts_lookup on any bytes. Byte 0: bit 0 picks musl, bits 1-2 the family
// (unspec, inet, inet6), bit 3 glibc's multi; byte 1 the name's length,
// then the name; the rest is the file, read in memory and streamed from a
// file through a small buffer: the same result, unless a line did not fit.
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "files/hosts.h"

using namespace rk8s;

static void check(bool ok) {
  if (!ok) abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static const int kFamilies[4] = {AF_UNSPEC, AF_INET, AF_INET6, AF_UNSPEC};
  HostsQuery q{data[0] & 1 ? Dialect::musl : Dialect::glibc, kFamilies[data[0] >> 1 & 3], bool(data[0] & 8)};
  size_t n = data[1] < size - 2 ? data[1] : size - 2;
  Str name{reinterpret_cast<const char*>(data + 2), n};
  Str file{name.data + n, size - 2 - n};
  HostsResult r;
  LineReader text(file);
  check(hosts_lookup(q, text, name, r) == r.addrs.count);
  static int fd = memfd_create("hosts", 0);
  check(ftruncate(fd, 0) == 0 && pwrite(fd, file.data, file.size, 0) == ssize_t(file.size) &&
        lseek(fd, 0, SEEK_SET) == 0);
  char buf[600];
  LineReader streamed(fd, buf, sizeof buf);
  static HostsResult s;
  hosts_lookup(q, streamed, name, s);
  if (!streamed.failed()) {
    check(s.addrs.count == r.addrs.count && s.error == r.error && s.complete == r.complete &&
          s.line_room == r.line_room && memcmp(s.names, r.names, sizeof r.names) == 0);
    for (size_t i = 0; i < r.addrs.count; i++) check(same_ip(s.addrs[i], r.addrs[i]));
  }
  check(memchr(r.names, 0, sizeof r.names) != nullptr);
  for (size_t i = 0; i < r.alias_count(); i++)
    check(r.alias_at[i] < sizeof r.names && memchr(r.alias(i), 0, sizeof r.names - r.alias_at[i]));
  for (const IpAddr& a : r.addrs) {
    check(a.family == AF_INET || a.family == AF_INET6);
    if (q.family != AF_UNSPEC) check(a.family == q.family);
    if (a.family == AF_INET || q.dialect == Dialect::glibc) check(a.scope_id == 0);
  }
  check(r.error == 0 || (q.dialect == Dialect::musl && !r.found()));
  check(q.dialect == Dialect::glibc || r.alias_count() == 0);
  return 0;
}
