// SPDX-License-Identifier: Apache-2.0
// /etc/gai.conf as glibc 2.36 reads it: the label, precedence and scopev4
// tables of its RFC 3484 sort, and the reload flag.
#pragma once

#include "files/watched_file.h"
#include "util/ip.h"

namespace rk8s {

struct GaiPrefix {
  uint8_t prefix[16] = {};
  uint8_t bits = 0;
  int32_t val = 0;
};

// An IPv4 scope rule; addr and mask in network byte order, as glibc keeps them.
struct GaiScope {
  uint32_t addr = 0;
  uint32_t mask = 0;
  int32_t scope = 0;
};

constexpr size_t kMaxGaiRules = 64;  // per table; glibc has no limit

// Most specific rule first; each table ends with a rule matching everything.
struct GaiConf {
  FixedVec<GaiPrefix, kMaxGaiRules + 1> labels;
  FixedVec<GaiPrefix, kMaxGaiRules + 1> precedence;
  FixedVec<GaiScope, kMaxGaiRules + 1> scopes;
  bool reload = false;
  bool complete = true;  // false: a table had more than kMaxGaiRules rules
};

// glibc's built-in tables (no /etc/gai.conf).
void gai_conf_defaults(GaiConf& out);
// The file's bytes; a table the file does not set keeps its default.
void parse_gai_conf(const char* text, size_t len, GaiConf& out);
// /etc/gai.conf, read once per process like glibc, read again when it
// changed if it says `reload yes`; empty only when out of memory.
using GaiConfRef = WatchedFile<GaiConf>::Ref;
GaiConfRef current_gai_conf();

}  // namespace rk8s
