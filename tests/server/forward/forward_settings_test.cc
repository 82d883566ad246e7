// SPDX-License-Identifier: Apache-2.0
// forwardPlugin and upstreamResolvers in the config file: upstream
// addresses, policies, the node's resolv.conf as glibc reads it, and each
// bad value's error.
#include "server/forward/forward_settings.h"

#include <gtest/gtest.h>

#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using test::SectionCase;

// The resolv.conf that `type: SystemResolvConf` reads in these tests.
const FileNames& files() {
  static const FileNames f{"", test::temp_file("forward.conf", "nameserver 10.0.0.2\nnameserver fd00::2\n")};
  return f;
}

auto plugin(const FileNames& with = files()) {
  return [&with](const Field* f) { return parse_forward_plugin(*f, with); };
}
auto resolvers(const FileNames& with = files()) {
  return [&with](const Field* f) { return parse_upstream_resolvers(*f, with); };
}

TEST(ForwardSettings, EachKeyReadsIntoItsField) {
  const struct {
    std::string yaml, forward;
  } plugins[] = {
      {"forwardPlugin: {upstreams: [10.96.0.11, '10.96.0.12:5353', '[fd00::11]:53', 'fd00::12']}\n",
       "Random 10.96.0.11:53 10.96.0.12:5353 [fd00::11]:53 [fd00::12]:53"},
      {"forwardPlugin:\n    upstreams: [10.0.0.1]\n    policy: RoundRobin\n    protocolStrategy: TCP\n",
       "RoundRobin TCP 10.0.0.1:53"},
      {"forwardPlugin: {upstreams: [10.0.0.1], policy: Sequential, protocolStrategy: ''}\n",
       "Sequential 10.0.0.1:53"},
  };
  for (const auto& c : plugins)
    EXPECT_EQ(test::forward_text(test::read_section(c.yaml, "forwardPlugin", plugin())), c.forward) << c.yaml;
  // upstreamResolvers: Sequential by default, resolv.conf's nameservers in place.
  const struct {
    std::string yaml, forward;
  } resolver_cases[] = {
      {"upstreamResolvers: {upstreams: [{type: Network, address: 192.0.2.1}]}\n", "Sequential 192.0.2.1:53"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: Network, address: 'fd00::1', port: 5353}\n"
       "  - type: SystemResolvConf\n  - {type: Network, address: 192.0.2.9}\n"
       "  policy: Random\n  protocolStrategy: TCP\n",
       "Random TCP [fd00::1]:5353 10.0.0.2:53 [fd00::2]:53 192.0.2.9:53"},
  };
  for (const auto& c : resolver_cases)
    EXPECT_EQ(test::forward_text(test::read_section(c.yaml, "upstreamResolvers", resolvers())), c.forward) << c.yaml;
}

TEST(ForwardSettings, ForwardPluginErrors) {
  const SectionCase cases[] = {
      {"forwardPlugin: {}\n", "c.yaml:1: forwardPlugin: missing 'upstreams'"},
      {"forwardPlugin: {upstreams: []}\n", "c.yaml:1: upstreams: needs at least 1"},
      {"forwardPlugin:\n    upstreams: [1.0.0.1, 1.0.0.2, 1.0.0.3, 1.0.0.4, "
       "1.0.0.5, 1.0.0.6, 1.0.0.7, 1.0.0.8, 1.0.0.9, 1.0.0.10, 1.0.0.11, 1.0.0.12, "
       "1.0.0.13, 1.0.0.14, 1.0.0.15, 1.0.0.16]\n",
       "c.yaml:2: upstreams: takes at most 15 items"},
      {"forwardPlugin:\n    upstreams:\n    - 10.0.0.1\n    - 10.0.0.1:0\n",
       "c.yaml:4: upstreams: '10.0.0.1:0' is not IP, IP:PORT or [IPV6]:PORT"},
      {"forwardPlugin: {upstreams: [10.0.0.256]}\n", "c.yaml:1: upstreams: '10.0.0.256'"},
      {"forwardPlugin: {upstreams: ['[fd00::1]']}\n", "c.yaml:1: upstreams: '[fd00::1]'"},
      {"forwardPlugin: {upstreams: [dns.google]}\n", "c.yaml:1: upstreams: 'dns.google'"},
      {"forwardPlugin: {upstreams: [10.0.0.1], policy: random}\n",
       "c.yaml:1: policy: 'random' is not one of Random, RoundRobin, Sequential"},
      {"forwardPlugin: {upstreams: [10.0.0.1], protocolStrategy: UDP}\n",
       "c.yaml:1: protocolStrategy: 'UDP' is not one of \"\", TCP"},
      {"forwardPlugin: {upstreams: [10.0.0.1], transport: TLS}\n",
       "c.yaml:1: forwardPlugin: unknown key 'transport' (known: upstreams, policy, protocolStrategy, transportConfig)"},
  };
  test::expect_section_errors(cases, "forwardPlugin", plugin());
}

TEST(ForwardSettings, UpstreamResolversErrors) {
  const SectionCase cases[] = {
      {"upstreamResolvers: []\n", "c.yaml:1: upstreamResolvers: expected a mapping"},
      {"upstreamResolvers: {policy: Random}\n", "c.yaml:1: upstreamResolvers: missing 'upstreams'"},
      {"upstreamResolvers: {upstreams: [10.0.0.1]}\n", "c.yaml:1: upstreams: expected a mapping"},
      {"upstreamResolvers:\n  upstreams:\n  - {address: 10.0.0.1}\n", "c.yaml:3: upstreams: missing 'type'"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: Dns}\n",
       "c.yaml:3: type: 'Dns' is not one of SystemResolvConf, Network"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: Network}\n", "c.yaml:3: upstreams: missing 'address'"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: Network, address: '10.0.0.1:53'}\n",
       "c.yaml:3: address: '10.0.0.1:53' is not an IP address"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: Network, address: 10.0.0.1, port: 0}\n",
       "c.yaml:3: port: expected a number from 1 to 65535, got '0'"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: SystemResolvConf, port: 53}\n",
       "c.yaml:3: upstreams: address and port are for type Network"},
      {"upstreamResolvers:\n  upstreams:\n  - {type: Network, address: 10.0.0.1, ttl: 5}\n",
       "c.yaml:3: upstreams: unknown key 'ttl' (known: type, address, port)"},
  };
  test::expect_section_errors(cases, "upstreamResolvers", resolvers());
}

TEST(ForwardSettings, SixteenUpstreamsOnceResolvConfIsRead) {
  std::string yaml = "upstreamResolvers:\n  upstreams:\n";
  for (int i = 1; i <= 14; ++i) yaml += "  - {type: Network, address: 192.0.2." + std::to_string(i) + "}\n";
  yaml += "  - type: SystemResolvConf\n";  // two more
  EXPECT_EQ(test::section_error(yaml, "upstreamResolvers", resolvers()),
            "c.yaml:2: upstreams: 16 upstreams with resolv.conf's: at most 15");
}

struct UpstreamCase {
  const char* text;
  const char* canonical;  // nullptr: refused
  uint16_t port;
};

TEST(ForwardSettings, UpstreamForms) {
  const UpstreamCase cases[] = {
      {"10.96.0.11", "10.96.0.11:53", 53},
      {"10.96.0.12:5353", "10.96.0.12:5353", 5353},
      {"fd00::11", "[fd00::11]:53", 53},
      {"[fd00::11]:54", "[fd00::11]:54", 54},
      {"fd00::1:53", "[fd00::1:53]:53", 53},  // an address, not a port
      {"[::ffff:10.0.0.1]:53", "[::ffff:10.0.0.1]:53", 53},
      {"10.0.0.1:65535", "10.0.0.1:65535", 65535},
      {"10.0.0.1:0", nullptr, 0},
      {"10.0.0.1:65536", nullptr, 0},
      {"10.0.0.1:", nullptr, 0},
      {"127.1", nullptr, 0},  // inet_aton's forms are not addresses here
      {"[fd00::1]", nullptr, 0},
      {"[10.0.0.1]:53", nullptr, 0},
      {"fd00::1]:53", nullptr, 0},
      {"", nullptr, 0},
      {"fe80::1%eth0", nullptr, 0},
  };
  for (const UpstreamCase& c : cases) {
    Upstream u;
    bool ok = parse_upstream(c.text, u);
    EXPECT_EQ(ok, c.canonical != nullptr) << c.text;
    if (!ok || !c.canonical) continue;
    EXPECT_EQ(u.text, c.canonical) << c.text;
    EXPECT_EQ(u.port, c.port) << c.text;
    Upstream again;
    ASSERT_TRUE(parse_upstream(u.text, again)) << c.text;
    EXPECT_TRUE(same_ip(again.address, u.address)) << c.text;
  }
}

struct ResolvConfCase {
  const char* rule;
  const char* resolv_conf;
  const char* upstreams;
};

TEST(ForwardSettings, SystemResolvConfAsGlibcReadsIt) {
  const ResolvConfCase cases[] = {
      {"in order, port 53", "nameserver 10.0.0.2\nnameserver fd00::2\n", "Sequential 10.0.0.2:53 [fd00::2]:53"},
      {"glibc keeps three",
       "nameserver 10.0.0.1\nnameserver 10.0.0.2\nnameserver 10.0.0.3\n"
       "nameserver 10.0.0.4\n",
       "Sequential 10.0.0.1:53 10.0.0.2:53 10.0.0.3:53"},
      {"none: glibc's loopback", "search a.test\n", "Sequential 127.0.0.1:53"},
      {"inet_aton's forms, comments, options", "; x\nnameserver 10.1\n# y\noptions ndots:5\n",
       "Sequential 10.0.0.1:53"},
      {"a bad line dropped", "nameserver bogus\nnameserver 10.0.0.9\n", "Sequential 10.0.0.9:53"},
      {"link-local with its scope", "nameserver fe80::1%1\n", "Sequential [fe80::1%1]:53"},
  };
  for (const ResolvConfCase& c : cases) {
    FileNames with{"", test::temp_file("case.conf", c.resolv_conf)};
    ForwardConfig f = test::read_section("upstreamResolvers: {upstreams: [{type: SystemResolvConf}]}\n",
                                         "upstreamResolvers", resolvers(with));
    EXPECT_EQ(test::forward_text(f), c.upstreams) << c.rule;
  }
}

TEST(ForwardSettings, UnreadableResolvConfIsAnError) {
  FileNames missing{"", "/nonexistent/resolv.conf"};
  EXPECT_EQ(test::section_error("upstreamResolvers:\n  upstreams:\n  - type: SystemResolvConf\n",
                                "upstreamResolvers", resolvers(missing)),
            "c.yaml:3: type: /nonexistent/resolv.conf: No such file or directory");
}

}  // namespace
}  // namespace rk8s::server
