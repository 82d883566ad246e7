// SPDX-License-Identifier: Apache-2.0
// nodeSetup in the config file: each key read into its field, and each bad
// value's error.
#include "server/node/node_settings.h"

#include <gtest/gtest.h>

#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using test::SectionCase;

NodeSetupConfig read(const std::string& yaml) {
  return test::read_section(yaml, "nodeSetup", [](const Field* f) { return parse_node_settings(*f); });
}

TEST(NodeSettings, DefaultsThenEachKey) {
  NodeSetupConfig d = read("nodeSetup: {}\n");
  EXPECT_EQ(d.interface, "resolv-k8s");
  EXPECT_EQ(d.check_seconds, 60u);
  EXPECT_EQ(d.lock_file, "/run/resolv-k8s/node.lock");
  EXPECT_TRUE(d.keep_link_local);
  EXPECT_EQ(d.daemon_set, "");
  NodeSetupConfig n = read(
      "nodeSetup: {interface: dns0, checkInterval: 5m, lockFile: /run/x.lock, keepLinkLocal: false,\n"
      "  daemonSet: kube-system/resolv-k8s-node}\n");
  EXPECT_EQ(n.interface, "dns0");
  EXPECT_EQ(n.check_seconds, 300u);
  EXPECT_EQ(n.lock_file, "/run/x.lock");
  EXPECT_FALSE(n.keep_link_local);
  EXPECT_EQ(n.daemon_set, "kube-system/resolv-k8s-node");
}

TEST(NodeSettings, Errors) {
  const SectionCase cases[] = {
      {"nodeSetup: {interface: \"\"}\n", "c.yaml:1: interface: '' is not an interface name"},
      {"nodeSetup: {interface: a/b}\n", "c.yaml:1: interface: 'a/b' is not an interface name"},
      {"nodeSetup: {interface: sixteen-letters-}\n", "c.yaml:1: interface: 'sixteen-letters-' is not"},
      {"nodeSetup: {checkInterval: 0s}\n", "c.yaml:1: checkInterval: must be at least 1s"},
      {"nodeSetup: {lockFile: run/x}\n", "c.yaml:1: lockFile: must be an absolute path"},
      {"nodeSetup: {daemonSet: resolv-k8s-node}\n", "c.yaml:1: daemonSet: 'resolv-k8s-node' is not NAMESPACE/NAME"},
      {"nodeSetup: {daemonSet: kube-system/}\n", "c.yaml:1: daemonSet: 'kube-system/' is not"},
      {"nodeSetup: {daemonSet: a/b/c}\n", "c.yaml:1: daemonSet: 'a/b/c' is not"},
      {"nodeSetup: {keepLinkLocal: yes}\n", "c.yaml:1: keepLinkLocal: expected true or false, got 'yes'"},
      {"nodeSetup: {lock: /x}\n", "c.yaml:1: nodeSetup: unknown key 'lock' (known: interface, checkInterval, "
                                   "lockFile, keepLinkLocal, daemonSet)"},
  };
  test::expect_section_errors(cases, "nodeSetup", [](const Field* f) { return parse_node_settings(*f); });
}

}  // namespace
}  // namespace rk8s::server
