// SPDX-License-Identifier: Apache-2.0
// /etc/nsswitch.conf bytes: never crash, always one of the plans.
#include <stdlib.h>

#include "files/nsswitch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto plan = rk8s::nsswitch_hosts(reinterpret_cast<const char*>(data), size);
  if (uint8_t(plan) > uint8_t(rk8s::HostsSources::libc)) abort();
  return 0;
}
