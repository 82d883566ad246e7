// SPDX-License-Identifier: Apache-2.0
// Every record the server holds, cluster and zone files alike, keyed by
// owner name. Zones are the apexes the server is authoritative for; a name
// under no zone is outside the server's data.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "server/model/rr.h"

namespace rk8s::server {

// The records at one name; no records at all is an empty non-terminal,
// `declared` when the data named it (add_empty), not only a name below it.
struct Node {
  std::vector<Rr> rrs;
  bool declared = false;

  const Rr* first(uint16_t type) const;
};

struct Zone {
  Name apex;
  Rr soa;  // also in the apex node, where queries for SOA find it
  // A cluster zone, read as CoreDNS's kubernetes plugin reads it: by the
  // schema, not as a tree (an empty non-terminal it did not declare,
  // `_tcp.svc.ns.svc.D` above an SRV, is NXDOMAIN), and a CNAME leaving it
  // chased as the plugin chases an ExternalName's target (store_lookup.h).
  bool schema = false;
};

class Store {
 public:
  // `soa` becomes the apex's SOA record. False when the zone is already loaded.
  bool add_zone(const Name& apex, const Rr& soa, bool schema = false);
  // Adds `rr` at `owner` unless an identical record is there; every
  // ancestor of `owner` comes to exist as at least an empty non-terminal.
  void add(const Name& owner, const Rr& rr);
  // `name` declared, records or not.
  void add_empty(const Name& name);

  const Node* find(const Name& name) const;
  bool has(const Name& name, uint16_t type) const;
  // The zone with the longest apex above `name`, or null.
  const Zone* zone_of(const Name& name) const;
  size_t node_count() const { return nodes_.size(); }

 private:
  Node& node(const Name& name);

  std::unordered_map<std::string, Node> nodes_;
  std::vector<Zone> zones_;
};

}  // namespace rk8s::server
