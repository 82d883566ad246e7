// SPDX-License-Identifier: Apache-2.0
// resolv-k8s inject on any bytes, in both modes (the library with the
// node-local cache as nameserver, and the marker path): a stream or a
// StreamError, never a crash or a hang (yaml-cpp's LoadAll can hang: the
// stream is split by hand); and what it writes, injected again, comes back
// byte for byte. A first byte 'M' picks the marker path for the rest.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>

#include "tools/inject/inject_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rk8s::tools::InjectOptions options{"libresolv-k8s-init:0.1", "glibc", {"169.254.20.10", "10.96.0.10"},
                             "cluster.local", "default"};
  if (size > 0 && data[0] == 'M') {
    options.marker = true;
    options.host_search = {"ec2.internal"};
    data++, size--;
  }
  std::string out;
  try {
    out = rk8s::tools::inject_stream(std::string(reinterpret_cast<const char*>(data), size), options);
  } catch (const rk8s::tools::StreamError&) {
    return 0;
  }
  try {
    if (rk8s::tools::inject_stream(out, options) != out) abort();
  } catch (const rk8s::tools::StreamError&) {
    abort();
  }
  return 0;
}
