// SPDX-License-Identifier: Apache-2.0
// autopath in the config file: the option's mode and code (handler.h), and
// the marker path (marker.h), on with autopath.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "libresolv-k8s/dns/autopath.h"
#include "server/settings/file_names.h"
#include "server/settings/yaml_field.h"

namespace rk8s::server {

// The test modes formerr and echo are server/faults/'s.
enum class AutopathMode : uint8_t {
  on,   // protocol v1
  off,  // ignore the option, as RFC 6891 says for unknown options
};

// The marker path of "DNS Autopath in PodSpec" (answer/marker.h): a query
// for <base>.search.<ns>.<clusterDomain>.<marker> is answered for <base>
// walked over the pod's ClusterFirst search list.
constexpr char kDefaultMarker[] = "ap.k8s.io";  // the proposal's

struct MarkerConfig {
  dns::Name marker;                    // kDefaultMarker
  dns::Name cluster_domain;            // cluster.local
  std::vector<dns::Name> host_search;  // the node's search domains
};

// Candidates an autopath walk skips as NXDOMAIN without asking (off by
// default: each trusts what answers them to be plain CoreDNS kubernetes,
// or a server that follows RFC 8020).
struct WalkCuts {
  // schemaCut, with clusterDomain: the names the Kubernetes DNS schema
  // makes NXDOMAIN (schema_cut.h).
  std::optional<dns::Name> schema;
  // rfc8020Cut, with clusterDomain (cluster.local by default): a candidate
  // of two labels or more before its search domain is asked only once the
  // name one label below that domain is not NXDOMAIN; an NXDOMAIN there
  // answers the candidate (RFC 8020, autopath_walk.h). The cache also
  // answers any question under the cluster domain from a cached NXDOMAIN
  // above it (forward/forwarder.h), a client's own walk past a marker name
  // among them.
  std::optional<dns::Name> rfc8020;
};

struct AutopathSettings {
  AutopathMode mode = AutopathMode::on;  // {enabled: false} is off
  uint16_t code = autopath::kDefaultCode;
  std::optional<MarkerConfig> marker;  // with autopath on
  // clusterDomain, when the file names it, whatever autopath says: some
  // server must hold it (the config file's walk checks).
  std::optional<Field> cluster_domain;
  WalkCuts cuts;
};

// `f` null when the file has no autopath. hostSearch absent: the search
// line of resolvConf, else of files.resolv_conf.
AutopathSettings parse_autopath_settings(const Field* f, const FileNames& files);

std::vector<SettingKeys> autopath_setting_keys();

}  // namespace rk8s::server
