// SPDX-License-Identifier: Apache-2.0
#include "server/node/node_settings.h"

#include <net/if.h>

#include <string_view>

namespace rk8s::server {

namespace {

constexpr std::string_view kNodeSetupKeys[] = {"interface", "checkInterval", "lockFile", "keepLinkLocal",
                                               "daemonSet"};

}  // namespace

NodeSetupConfig parse_node_settings(const Field& f) {
  Mapping m = f.mapping(kNodeSetupKeys);
  NodeSetupConfig n;
  if (const Field* d = m.find("daemonSet")) {
    n.daemon_set = d->text();
    size_t slash = n.daemon_set.find('/');
    if (slash == 0 || slash == std::string::npos || slash + 1 == n.daemon_set.size() ||
        n.daemon_set.find('/', slash + 1) != std::string::npos)
      d->fail("'" + n.daemon_set + "' is not NAMESPACE/NAME");
  }
  if (const Field* k = m.find("keepLinkLocal")) n.keep_link_local = k->boolean();
  if (const Field* i = m.find("interface")) {
    n.interface = i->text();
    if (n.interface.empty() || n.interface.size() >= IFNAMSIZ || n.interface.find('/') != std::string::npos)
      i->fail("'" + n.interface + "' is not an interface name");
  }
  if (const Field* d = m.find("checkInterval")) {
    n.check_seconds = d->duration_seconds();
    if (n.check_seconds == 0) d->fail("must be at least 1s");
  }
  if (const Field* l = m.find("lockFile")) {
    n.lock_file = l->text();
    if (n.lock_file.empty() || n.lock_file[0] != '/') l->fail("must be an absolute path");
  }
  return n;
}

std::vector<SettingKeys> node_setting_keys() { return {{"", kNodeSetupKeys}}; }

}  // namespace rk8s::server
