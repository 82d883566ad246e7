// SPDX-License-Identifier: Apache-2.0
// What the node's set-up computes without touching the node
// (server/node/setup.h, notrack.h): the addresses it holds, the nftables
// commands of its NOTRACK table, and the lock kept when another instance
// holds the set-up. Putting them in place needs CAP_NET_ADMIN and would
// change this machine's network: tests/node/'s suites do that in a node
// sandbox.
#include "server/node/setup.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include "server/settings/address.h"
#include "server/node/notrack.h"

namespace rk8s::server {
namespace {

std::vector<std::string> texts(const std::vector<IpAddr>& addresses) {
  std::vector<std::string> out;
  for (const IpAddr& a : addresses) {
    char text[64];
    ip_to_text(a, text, sizeof text);
    out.push_back(text);
  }
  return out;
}

struct AddressesCase {
  const char* rule;
  std::vector<const char*> listen;
  std::vector<std::string> held;
};

TEST(NodeSetup, TheListenAddressesButTheWildcards) {
  const AddressesCase cases[] = {
      {"NodeLocal's link-local address and the kube-dns ClusterIP",
       {"169.254.20.10:53", "10.96.0.10:53"},
       {"169.254.20.10", "10.96.0.10"}},
      {"IPv6", {"[fd00::a]:53"}, {"fd00::a"}},
      {"the wildcards are no address of the node's", {"0.0.0.0:53", "[::]:53", "127.0.0.53:53"}, {"127.0.0.53"}},
      {"the port does not matter", {"10.0.0.1:5353"}, {"10.0.0.1"}},
  };
  for (const AddressesCase& c : cases) {
    std::vector<Endpoint> listen;
    for (const char* text : c.listen) {
      listen.emplace_back();
      ASSERT_TRUE(parse_endpoint(text, listen.back())) << text;
    }
    EXPECT_EQ(texts(listen_addresses(listen)), c.held) << c.rule;
  }
}

// Linux's flock drops the shared lock before it finds the other instance's
// that fails the upgrade: an instance left without it would not count when
// the other, ending later, asks whether it is the last.
TEST(NodeSetup, ATearDownLeftToAnotherInstanceKeepsTheSharedLock) {
  NodeSetupConfig config;
  config.lock_file = testing::TempDir() + "setup_test_node.lock";
  std::vector<Endpoint> listen(1);
  ASSERT_TRUE(parse_endpoint("169.254.20.10:53", listen[0]));
  NodeSetup node(config, listen);
  int other = open(config.lock_file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(other, LOCK_SH), 0);
  EXPECT_FALSE(node.teardown()) << "another instance holds the set-up";
  close(other);  // that instance ends
  int last = open(config.lock_file.c_str(), O_RDONLY | O_CLOEXEC);
  EXPECT_NE(flock(last, LOCK_EX | LOCK_NB), 0) << "this instance no longer holds its shared lock";
  close(last);
}

TEST(NotrackRules, OneTableTwoRawChainsSixRulesAnAddress) {
  IpAddr v4, v6;
  ASSERT_TRUE(parse_ip("169.254.20.10", v4));
  ASSERT_TRUE(parse_ip("fd00::a", v6));
  EXPECT_EQ(notrack_table_commands({v4, v6}),
            "add table inet resolv_k8s\n"
            "add chain inet resolv_k8s prerouting { type filter hook prerouting priority raw; }\n"
            "add chain inet resolv_k8s output { type filter hook output priority raw; }\n"
            "add rule inet resolv_k8s prerouting ip daddr 169.254.20.10 udp dport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip saddr 169.254.20.10 udp sport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip daddr 169.254.20.10 udp dport 53 counter notrack\n"
            "add rule inet resolv_k8s prerouting ip daddr 169.254.20.10 tcp dport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip saddr 169.254.20.10 tcp sport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip daddr 169.254.20.10 tcp dport 53 counter notrack\n"
            "add rule inet resolv_k8s prerouting ip6 daddr fd00::a udp dport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip6 saddr fd00::a udp sport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip6 daddr fd00::a udp dport 53 counter notrack\n"
            "add rule inet resolv_k8s prerouting ip6 daddr fd00::a tcp dport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip6 saddr fd00::a tcp sport 53 counter notrack\n"
            "add rule inet resolv_k8s output ip6 daddr fd00::a tcp dport 53 counter notrack\n");
}

}  // namespace
}  // namespace rk8s::server
