// SPDX-License-Identifier: Apache-2.0
// The cluster's objects, the few fields of them DNS needs: read from
// kubectl's JSON (cluster_json.h), turned into records (cluster_records.h).
#pragma once

#include <string>
#include <vector>

#include "server/util/names.h"
#include "libresolv-k8s/util/ip.h"

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
};

struct SliceEndpoint {
  std::vector<IpAddr> addresses;
  // conditions.ready, absent means ready: CoreDNS reads nothing else (the
  // controller sets it for publishNotReadyAddresses)
  bool ready = true;
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
  std::string ns, name;
  std::vector<IpAddr> ips;  // status.podIPs
};

struct Cluster {
  std::vector<std::string> namespaces;
  std::vector<Service> services;
  std::vector<EndpointSlice> slices;
  std::vector<Pod> pods;
};

}  // namespace rk8s::server
