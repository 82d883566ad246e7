// SPDX-License-Identifier: Apache-2.0
// The cluster as kubectl prints it: `kubectl get namespaces,services,
// endpointslices,pods --all-namespaces -o json`, read into the few fields
// DNS needs, then turned into records (cluster_records.cc).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/json.h"
#include "server/data/store.h"
#include "util/ip.h"

namespace rk8s::server {

struct ServicePort {
  std::string name;      // only named ports get SRV records
  std::string protocol;  // lower case: tcp, udp, sctp
  uint16_t port = 0;
};

struct Service {
  int line = 0;
  std::string ns, name;
  enum Kind { kClusterIp, kHeadless, kExternalName } kind = kClusterIp;
  std::vector<IpAddr> ips;  // spec.clusterIPs, dual stack
  Name external_name;       // kExternalName
  std::vector<ServicePort> ports;
  bool publish_not_ready = false;
};

struct SliceEndpoint {
  std::vector<IpAddr> addresses;
  bool ready = true;  // conditions.ready; absent means ready
  std::string hostname;
};

struct EndpointSlice {
  int line = 0;
  std::string ns, service;  // label kubernetes.io/service-name
  std::vector<SliceEndpoint> endpoints;
  std::vector<ServicePort> ports;
};

struct Pod {
  int line = 0;
  std::string ns, name, hostname, subdomain;
  std::vector<IpAddr> ips;  // status.podIPs
  bool ready = false;       // condition Ready=True
};

struct Cluster {
  std::vector<std::string> namespaces;
  std::vector<Service> services;
  std::vector<EndpointSlice> slices;
  std::vector<Pod> pods;
};

using Warn = std::function<void(const std::string&)>;

// Throws LoadError on a value of the wrong shape; an item of another kind
// is skipped with one warning.
Cluster parse_cluster(const JsonDoc& doc, const std::string& file, const Warn& warn);

// The cluster domain's zone (SOA, NS) and the reverse zones, then every
// record of the Kubernetes DNS schema. Throws LoadError when a name made
// from the objects is not a valid domain name.
void add_cluster(const Cluster& cluster, const Name& domain, const std::string& file,
                 Store& store);

}  // namespace rk8s::server
