#include "server/lookup.h"

#include <algorithm>

namespace rk8s::server {

namespace {

constexpr int kMaxChain = 8;

// RFC 4592: the wildcard child of the closest encloser, if there is one.
const Node* wildcard(const Store& store, const Name& name, const Name& apex) {
  Name encloser = name;
  while (!dns::name_equal(encloser, apex)) {
    encloser = name_parent(encloser);
    if (!store.find(encloser)) continue;
    Name star;
    return name_prepend("*", encloser, star) ? store.find(star) : nullptr;
  }
  return nullptr;
}

}  // namespace

uint32_t Answer::min_ttl() const {
  uint32_t ttl = UINT32_MAX;
  for (const RrRef& r : records) ttl = std::min(ttl, r.rr->ttl);
  return ttl;
}

uint32_t Answer::negative_ttl() const {
  return soa ? soa_negative_ttl(*soa->rr) : UINT32_MAX;
}

Answer lookup(const Store& store, const Name& qname, uint16_t type) {
  Answer a;
  Name name = qname;
  for (int hop = 0; hop <= kMaxChain; ++hop) {
    const Zone* zone = store.zone_of(name);
    if (!zone) {
      a.rcode = dns::kNxDomain;
      return a;
    }
    if (hop == 0) a.authoritative = true;
    const Node* node = store.find(name);
    if (!node) node = wildcard(store, name, zone->apex);
    if (!node) {
      a.rcode = dns::kNxDomain;
      a.soa = RrRef{zone->apex, &zone->soa};
      return a;
    }
    const Rr* cname = node->first(dns::kTypeCNAME);
    if (cname && type != dns::kTypeCNAME && type != dns::kTypeANY) {
      a.records.push_back(RrRef{name, cname});
      name = rr_target(*cname);
      continue;
    }
    for (const Rr& rr : node->rrs)
      if (rr.type == type || type == dns::kTypeANY) {
        a.records.push_back(RrRef{name, &rr});
        a.has_data = true;
      }
    if (!a.has_data) a.soa = RrRef{zone->apex, &zone->soa};
    return a;
  }
  // A CNAME loop or an overlong chain in the data.
  a = Answer{};
  a.rcode = dns::kServFail;
  return a;
}

}  // namespace rk8s::server
