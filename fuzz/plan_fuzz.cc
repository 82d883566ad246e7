// SPDX-License-Identifier: Apache-2.0
// build_plan and autopath_query on any name and resolv.conf. Byte 0: bit 0
// picks musl; byte 1 the name's length, then the name; the rest is the
// file. Checks the protocol's promise: base + suffix[i] is candidate i.
#include <stdlib.h>

#include "plan/plan.h"

using namespace rk8s;

static void check(bool ok) {
  if (!ok) abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  Dialect d = data[0] & 1 ? Dialect::musl : Dialect::glibc;
  size_t n = data[1] < size - 2 ? data[1] : size - 2;
  Str name{reinterpret_cast<const char*>(data + 2), n};
  static Config conf;
  parse_conf(d, name.data + n, size - 2 - n, ConfEnv{}, conf);
  Plan plan;
  build_plan(conf, name, plan);
  check((plan.kind == Plan::dns) == (plan.suffix.count > 0));
  check(plan.kind == Plan::dns ? plan.error == 0 : plan.error != 0);
  dns::Name c;
  for (size_t i = 0; i < plan.suffix.count; i++) check(candidate_name(conf, plan, i, c));
  check(!candidate_name(conf, plan, plan.suffix.count, c));

  static autopath::QueryOption opt, back;
  dns::Name qname, base;
  if (!autopath_query(conf, plan, 0, qname, opt)) return 0;
  uint8_t payload[2 + autopath::kMaxSuffixes * dns::kMaxName];
  size_t len = autopath::encode_query(opt, payload, sizeof payload);
  check(autopath::decode_query(Bytes{payload, len}, back) == autopath::QueryDecode::ok);
  check(back.count == plan.suffix.count);
  check(dns::name_strip_suffix(qname, back.suffix[0], base));
  for (size_t i = 0; i < back.count; i++) {
    dns::Name joined;
    check(candidate_name(conf, plan, i, c) && dns::name_concat(base, back.suffix[i], joined));
    check(dns::name_equal(joined, c));
  }
  return 0;
}
