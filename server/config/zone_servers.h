// SPDX-License-Identifier: Apache-2.0
// `servers` and kube-dns's `stubDomains` in the config file: the zones,
// each held by one server only, each server forwarding them
// (forward/forward_settings.h) or serving them from files.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "server/config/config.h"
#include "server/util/names.h"

namespace rk8s::server {

class ZoneServers {
 public:
  explicit ZoneServers(const FileNames& files) : files_(files) {}

  void read_servers(const Field& f);
  // {"ZONE": ["IP", ...]}, a map or that JSON as a string (as the ConfigMap
  // holds it, and `${NAME}` gives it); each zone a server forwarding it,
  // named "stubDomains ZONE".
  void read_stub_domains(const Field& f);
  // A cluster domain (autopath.clusterDomain, `field`) that no server's
  // zone holds, itself or a parent, would be asked of upstreamResolvers,
  // the node's resolvers, which know no Service: an error.
  void refuse_uncovered(const Field& field, const Name& domain) const;

  std::vector<ZoneServer> servers;
  std::vector<Field> fields;  // where each of `servers` was given, for errors found later

 private:
  ZoneServer server(const Field& f);
  Name zone(const Field& f, const std::string& server);

  const FileNames& files_;
  std::set<std::string> names_;
  std::map<std::string, std::string> zone_servers_;  // name_key -> server name
};

std::vector<SettingKeys> server_setting_keys();

}  // namespace rk8s::server
