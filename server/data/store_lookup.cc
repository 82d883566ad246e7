// SPDX-License-Identifier: Apache-2.0
#include "server/data/store_lookup.h"

#include "server/util/names.h"

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

// `qname`'s lookup, following at most `hops` CNAMEs.
Resolution lookup(const Store& store, const Name& qname, uint16_t type, int hops) {
  Resolution res;
  Name name = qname;
  const Zone* first = nullptr;
  for (int hop = 0; hop <= hops; ++hop) {
    const Zone* zone = store.zone_of(name);
    if (first && first->schema && zone && zone != first) {
      Resolution target = lookup(store, name, type, hops - hop);
      for (const RrRef& rr : target.records) res.records.push_back(rr);
      res.has_data = target.has_data;
      return res;
    }
    // A chain that leaves the data ends with its last CNAME, NOERROR, as an
    // authoritative server answers (RFC 1034 4.3.2 step 3a): cluster DNS
    // hands an ExternalName's target to whoever resolves for the client.
    if (!zone) {
      if (hop == 0) res.rcode = dns::kNxDomain;
      return res;
    }
    if (hop == 0) {
      res.authoritative = true;
      first = zone;
    }
    const Node* node = store.find(name);
    if (node && node->rrs.empty() && !node->declared && zone->schema) node = nullptr;
    if (!node) node = wildcard(store, name, zone->apex);
    if (!node) {
      res.rcode = dns::kNxDomain;
      res.authority.push_back(RrRef{zone->apex, &zone->soa});
      return res;
    }
    const Rr* cname = node->first(dns::kTypeCNAME);
    if (cname && type != dns::kTypeCNAME && type != dns::kTypeANY) {
      res.records.push_back(RrRef{name, cname});
      name = rr_target(*cname);
      continue;
    }
    for (const Rr& rr : node->rrs)
      if (rr.type == type || type == dns::kTypeANY) {
        res.records.push_back(RrRef{name, &rr});
        res.has_data = true;
      }
    if (!res.has_data) res.authority.push_back(RrRef{zone->apex, &zone->soa});
    return res;
  }
  // A CNAME loop or an overlong chain in the data.
  res = Resolution{};
  res.rcode = dns::kServFail;
  return res;
}

}  // namespace

Resolution store_lookup(const Store& store, const Name& qname, uint16_t type) {
  return lookup(store, qname, type, kMaxChain);
}

}  // namespace rk8s::server
