// SPDX-License-Identifier: Apache-2.0
// The public C API (include/resolv-k8s.h) as conf and plan call it: a
// resolv.conf loaded, and the text of an rk8s_* text function read whole.
#pragma once

#include <string>

#include "resolv-k8s.h"

namespace rk8s::tools {

// resolv.conf at `path` as `dialect` (RK8S_DIALECT_*) reads it, with the
// environment and host name glibc also reads; it lives as long as the
// process. Null (after a message) when it cannot be read.
const rk8s_conf* load_conf(const std::string& path, int dialect);

// All the text an rk8s_* text function has, `write(out, cap)` being that
// function: asked again with room enough when the first try was short.
template <class Write>
std::string api_text(Write write) {
  std::string s(256, '\0');
  size_t n = write(s.data(), s.size());
  if (n >= s.size()) {
    s.resize(n + 1);
    write(s.data(), s.size());
  }
  s.resize(n);
  return s;
}

}  // namespace rk8s::tools
