// SPDX-License-Identifier: Apache-2.0
// /etc/gai.conf bytes: never crash, tables always end in a catch-all rule.
#include <stdlib.h>

#include "files/gai_conf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rk8s::GaiConf conf;
  rk8s::parse_gai_conf(reinterpret_cast<const char*>(data), size, conf);
  const decltype(conf.labels)* tables[] = {&conf.labels, &conf.precedence};
  for (const auto* t : tables) {
    if (t->count == 0 || (*t)[t->count - 1].bits != 0) abort();
  }
  if (conf.scopes.count == 0 || conf.scopes[conf.scopes.count - 1].mask != 0) abort();
  return 0;
}
