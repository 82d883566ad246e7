// SPDX-License-Identifier: Apache-2.0
#include "server/forward/exchange.h"

#include "libresolv-k8s/dns/wire.h"
#include "server/forward/exchange_tcp.h"
#include "server/forward/exchange_udp.h"

namespace rk8s::server {

void exchange(Loop& loop, const Upstream& to, bool tcp, std::vector<uint8_t> query,
              unsigned timeout_ms, const QueryOwner& owner, ExchangeDone done) {
  if (tcp || to.tls) exchange_tcp(loop, to, std::move(query), timeout_ms, owner, std::move(done));
  else exchange_udp(loop, to, std::move(query), timeout_ms, std::move(done));
}

bool answers_query(Bytes query, Bytes reply) {
  dns::Reader q(query.data, query.size), r(reply.data, reply.size);
  dns::Header qh, rh;
  dns::Question qq, rq;
  return q.header(qh) && r.header(rh) && rh.qr() && rh.id == qh.id && rh.qdcount == 1 &&
         q.question(qq) && r.question(rq) && rq.type == qq.type && rq.klass == qq.klass &&
         dns::name_equal(rq.name, qq.name);
}

}  // namespace rk8s::server
