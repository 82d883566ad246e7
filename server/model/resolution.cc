// SPDX-License-Identifier: Apache-2.0
#include "server/model/resolution.h"

#include <algorithm>

namespace rk8s::server {

uint32_t Resolution::ttl_of(const Rr& rr) const {
  if (stale) return stale_ttl;
  uint32_t ttl = std::min(rr.ttl, entry_ttl);
  return ttl > age ? ttl - age : 0;
}

uint32_t Resolution::min_ttl() const {
  uint32_t ttl = UINT32_MAX;
  for (const RrRef& r : records) ttl = std::min(ttl, ttl_of(*r.rr));
  return ttl;
}

RrRef HeldRecords::add(const Name& owner, Rr rr) {
  rrs.push_back(std::move(rr));
  return RrRef{owner, &rrs.back()};
}

RrRef HeldRecords::copy(const Resolution& from, const RrRef& r) {
  Rr rr = *r.rr;
  rr.ttl = from.ttl_of(rr);
  return add(r.owner, std::move(rr));
}

const RrRef* Resolution::soa() const {
  for (const RrRef& r : authority)
    if (r.rr->type == dns::kTypeSOA) return &r;
  return nullptr;
}

uint32_t Resolution::negative_ttl() const {
  const RrRef* s = soa();
  if (!s) return UINT32_MAX;
  Rr counted = *s->rr;
  counted.ttl = ttl_of(counted);
  return soa_negative_ttl(counted);
}

}  // namespace rk8s::server
