// SPDX-License-Identifier: Apache-2.0
#include "server/data/store.h"

#include <algorithm>

namespace rk8s::server {

const Rr* Node::first(uint16_t type) const {
  for (const Rr& rr : rrs)
    if (rr.type == type) return &rr;
  return nullptr;
}

Node& Store::node(const Name& name) {
  auto [it, created] = nodes_.try_emplace(name_key(name));
  if (created && name.len > 1) node(name_parent(name));
  return it->second;
}

bool Store::add_zone(const Name& apex, const Rr& soa, bool schema) {
  for (const Zone& z : zones_)
    if (dns::name_equal(z.apex, apex)) return false;
  add(apex, soa);
  zones_.push_back(Zone{apex, soa, schema});
  return true;
}

void Store::add(const Name& owner, const Rr& rr) {
  Node& n = node(owner);
  if (std::find(n.rrs.begin(), n.rrs.end(), rr) == n.rrs.end()) n.rrs.push_back(rr);
}

void Store::add_empty(const Name& name) { node(name).declared = true; }

const Node* Store::find(const Name& name) const {
  auto it = nodes_.find(name_key(name));
  return it == nodes_.end() ? nullptr : &it->second;
}

bool Store::has(const Name& name, uint16_t type) const {
  const Node* n = find(name);
  return n && n->first(type);
}

const Zone* Store::zone_of(const Name& name) const {
  const Zone* best = nullptr;
  for (const Zone& z : zones_)
    if (dns::name_ends_with(name, z.apex) && (!best || z.apex.len > best->apex.len)) best = &z;
  return best;
}

}  // namespace rk8s::server
