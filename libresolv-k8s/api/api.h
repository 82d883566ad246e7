// SPDX-License-Identifier: Apache-2.0
// What the public C API's sources share: the conf the caller's memory
// holds, the export marker, and text written as snprintf writes it.
#pragma once

#include "conf/resolv_conf.h"
#include "resolv-k8s.h"

#define RK8S_API extern "C" __attribute__((visibility("default")))

struct rk8s_conf : rk8s::Config {};

namespace rk8s {

// Appends to a caller's buffer as snprintf would: counts what does not fit.
struct TextOut {
  char* buf;
  size_t cap;
  size_t len = 0;

  void put(const char* s, size_t n) {
    for (size_t i = 0; i < n; i++, len++)
      if (len + 1 < cap) buf[len] = s[i];
  }
  void put(const char* s) { put(s, strlen(s)); }
  void put_name(const dns::Name& n) {
    char text[dns::kMaxNameText];
    put(text, dns::name_to_text(n, text, sizeof text, true));
  }
  size_t finish() {
    if (cap) buf[len < cap ? len : cap - 1] = 0;
    return len;
  }
};

}  // namespace rk8s
