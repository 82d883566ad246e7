// SPDX-License-Identifier: Apache-2.0
// The `hosts:` line of /etc/nsswitch.conf as glibc 2.36 reads it (musl has
// no nsswitch), reduced to what the library may do itself.
#pragma once

#include "util/base.h"

namespace rk8s {

enum class HostsSources : uint8_t {
  files_dns,            // /etc/hosts, then DNS: all ours
  files_dns_then_libc,  // the same, but when DNS finds nothing libc answers
                        // (sources after dns, e.g. RHEL's `myhostname`)
  dns,                  // DNS only (no files before it)
  dns_then_libc,
  libc,                 // a source before dns, odd actions, no dns, or a
                        // file glibc cannot use: libc answers everything
};

// The file's bytes; text == nullptr means there is no file (`files dns`).
HostsSources nsswitch_hosts(const char* text, size_t len);

}  // namespace rk8s
