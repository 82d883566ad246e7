// SPDX-License-Identifier: Apache-2.0
// The closed world the server_* targets query: a zone, a cluster with a
// Service, an ExternalName and a pod, a SERVFAIL fault, and the marker path
// (answer/marker.h) over them.
#pragma once

#include "server/answer/closed_world.h"
#include "server/answer/marker.h"
#include "server/faults/faulty_source.h"
#include "server/data/cluster_json.h"
#include "server/data/cluster_records.h"
#include "server/data/zone_file.h"
#include "server/util/dns_text.h"

namespace rk8s::server::fuzz {

inline const char kZone[] =
    "$ORIGIN example.com.\n$TTL 60\n@ SOA ns h 1 2 3 4 30\n@ NS ns\nns A 192.0.2.1\n"
    "www A 192.0.2.2\nwww AAAA 2001:db8::2\nalias CNAME www\nloop CNAME loop\n*.wild A 192.0.2.3\n"
    "_s._tcp SRV 0 1 80 www\nmail MX 10 www\ntxt TXT \"a\" b\n";
inline const char kCluster[] =
    R"({"items": [{"kind": "Namespace", "metadata": {"name": "ns"}},
    {"kind": "Service", "metadata": {"name": "web", "namespace": "ns"},
     "spec": {"clusterIPs": ["10.0.0.1", "fd00::1"], "ports": [{"name": "http", "port": 80}]}},
    {"kind": "Service", "metadata": {"name": "ext", "namespace": "ns"},
     "spec": {"type": "ExternalName", "externalName": "alias.example.com"}},
    {"kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
     "status": {"podIPs": [{"ip": "10.1.0.1"}]}}]})";

inline std::shared_ptr<const Store> world_store() {
  auto store = std::make_shared<Store>();
  Name domain;
  parse_name("cluster.local", domain);
  add_cluster(parse_cluster(JsonDoc(kCluster, "c"), "c", [](const std::string&) {}), domain,
              "c", *store);
  load_zone(kZone, "z", *store);
  return store;
}

inline std::shared_ptr<const NameFaults> world_faults() {
  auto faults = std::make_shared<NameFaults>();
  faults->add_rcode("fail.example.com=SERVFAIL");
  return faults;
}

inline MarkerConfig world_marker() {
  MarkerConfig m;
  parse_name("ap.k8s.io", m.marker);
  parse_name("cluster.local", m.cluster_domain);
  Name corp;
  parse_name("example.com", corp);
  m.host_search.push_back(corp);
  return m;
}

struct World {
  Router router;
  FaultySource data{std::make_unique<ClosedWorld>(world_store()), world_faults()};
  MarkerConfig marker = world_marker();
  Name marker_zone_name = [this] {
    Name z;
    marker_zone(marker, z);
    return z;
  }();
  MarkerSource marker_source{marker, marker_zone_name, router};
  World() {
    router.add(Name{}, &data);
    router.add(marker_zone_name, &marker_source);
  }
};

}  // namespace rk8s::server::fuzz
