// SPDX-License-Identifier: Apache-2.0
// nodeSetup in the config file: the node's network as NodeLocal DNSCache
// sets it up (setup.h), and the supervisor's checks.
#pragma once

#include <string>
#include <vector>

#include "server/settings/yaml_field.h"

namespace rk8s::server {

struct NodeSetupConfig {
  std::string interface = "resolv-k8s";
  unsigned check_seconds = 60;  // checkInterval
  std::string lock_file = "/run/resolv-k8s/node.lock";  // lockFile
  // keepLinkLocal: the link-local listen addresses stay on the interface,
  // with their NOTRACK rules, when the last instance exits (node/setup.h).
  bool keep_link_local = true;
  // daemonSet: "NAMESPACE/NAME", the DaemonSet the cache runs under; when
  // set, the link-local addresses are kept only while the API server says
  // it is there (node/owner.h): an uninstall leaves nothing on the node.
  std::string daemon_set;
};

NodeSetupConfig parse_node_settings(const Field& f);

std::vector<SettingKeys> node_setting_keys();

}  // namespace rk8s::server
