// SPDX-License-Identifier: Apache-2.0
// A client's query message.
#include "dns/wire.h"

namespace rk8s::dns {

size_t build_query(const Query& q, uint8_t* buf, size_t cap) {
  Writer w(buf, cap);
  w.header(q.id, kFlagRD);
  if (!w.question(q.qname, q.qtype)) return 0;
  if (q.edns_udp_size != 0 && !w.opt(q.edns_udp_size, 0, 0, q.options, q.count)) return 0;
  return w.size();
}

}  // namespace rk8s::dns
