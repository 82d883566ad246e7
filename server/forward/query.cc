// SPDX-License-Identifier: Apache-2.0
#include "server/forward/query.h"

#include "libresolv-k8s/util/random.h"

namespace rk8s::server {

std::vector<uint8_t> upstream_query(const Ask& ask) {
  std::vector<uint8_t> out(512);
  dns::Writer w(out.data(), out.size());
  w.header(random_query_id(), uint16_t(dns::kFlagRD | (ask.checking_disabled ? dns::kFlagCD : 0)));
  w.question(ask.name, ask.type);
  w.opt(dns::kEdnsUdpSize, 0, ask.dnssec_ok ? 0x8000 : 0, nullptr, 0);
  out.resize(w.size());
  return out;
}

std::vector<uint8_t> probe_query() { return upstream_query(Ask{Name{}, dns::kTypeNS}); }

}  // namespace rk8s::server
