// SPDX-License-Identifier: Apache-2.0
// A client's query message.
#include "dns/wire.h"

namespace rk8s::dns {

size_t build_query(uint8_t* buf, size_t cap, uint16_t id, const Name& qname, uint16_t qtype,
                   uint16_t edns_udp_size, const EdnsOption* options, size_t count) {
  Writer w(buf, cap);
  w.header(id, kFlagRD);
  if (!w.question(qname, qtype)) return 0;
  if (edns_udp_size != 0 && !w.opt(edns_udp_size, 0, 0, options, count)) return 0;
  return w.size();
}

}  // namespace rk8s::dns
