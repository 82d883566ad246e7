// SPDX-License-Identifier: Apache-2.0
// transportConfig (DNS over TLS to the upstreams): OpenShift's keys on a
// forwardPlugin and on upstreamResolvers, port 853 by default, serverName
// required, the CA bundle a readable PEM file or the system's store.
#include "server/forward/transport_settings.h"

#include <gtest/gtest.h>

#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

const std::string kCert = "-----BEGIN CERTIFICATE-----\nMAo=\n-----END CERTIFICATE-----\n";

const FileNames& files() {
  static const FileNames f{"", test::temp_file("transport.conf", "nameserver 10.0.0.2\nnameserver 10.0.0.3:5353\n")};
  return f;
}

ForwardConfig plugin(const std::string& yaml) {
  return test::read_section("forwardPlugin:\n" + yaml, "forwardPlugin",
                            [](const Field* f) { return parse_forward_plugin(*f, files()); });
}

std::string error_of(const std::string& yaml) {
  return test::load_error([&] { plugin(yaml); });
}

TEST(TransportSettings, TlsOnAForwardPlugin) {
  std::string ca = test::temp_file("ca.pem", kCert);
  ForwardConfig f = plugin("    upstreams: [10.0.0.1, \"10.0.0.2:8853\", \"fd00::1\"]\n"
                           "    transportConfig:\n      transport: TLS\n"
                           "      tls: {serverName: dns.example., caBundle: " + ca + "}\n");
  ASSERT_EQ(f.upstreams.size(), 3u);
  EXPECT_EQ(f.upstreams[0].text, "10.0.0.1:853");
  EXPECT_EQ(f.upstreams[1].text, "10.0.0.2:8853");
  EXPECT_EQ(f.upstreams[2].text, "[fd00::1]:853");
  for (const Upstream& u : f.upstreams) {
    ASSERT_TRUE(u.tls);
    EXPECT_EQ(u.tls->server_name, "dns.example");  // the certificate's form, without the root's dot
    EXPECT_EQ(u.tls->ca_bundle, ca);
  }
}

TEST(TransportSettings, TlsOnUpstreamResolversWithTheSystemStore) {
  ForwardConfig f = test::read_section(
      "upstreamResolvers:\n  upstreams:\n  - {type: Network, address: 192.0.2.1}\n"
      "  - {type: Network, address: 192.0.2.2, port: 53}\n  - type: SystemResolvConf\n"
      "  transportConfig: {transport: TLS, tls: {serverName: dns.example}}\n",
      "upstreamResolvers", [](const Field* r) { return parse_upstream_resolvers(*r, files()); });
  std::vector<std::string> texts;
  for (const Upstream& u : f.upstreams) {
    texts.push_back(u.text);
    ASSERT_TRUE(u.tls);
    EXPECT_EQ(u.tls->ca_bundle, "");
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"192.0.2.1:853", "192.0.2.2:53", "10.0.0.2:853"}));
}

TEST(TransportSettings, CleartextIsUdpAndTcp) {
  for (const char* t : {"transportConfig: {transport: Cleartext}", "transportConfig: {transport: \"\"}",
                        "transportConfig: {}"}) {
    Upstream u = plugin("    upstreams: [10.0.0.1]\n    " + std::string(t) + "\n").upstreams.at(0);
    EXPECT_EQ(u.text, "10.0.0.1:53") << t;
    EXPECT_FALSE(u.tls) << t;
  }
}

TEST(TransportSettings, Errors) {
  std::string ca = test::temp_file("ca-ok.pem", kCert);
  std::string empty = test::temp_file("ca-empty.pem", "not a certificate\n");
  std::string up = "    upstreams: [10.0.0.1]\n    transportConfig:\n";
  struct {
    std::string yaml, error;
  } cases[] = {
      {up + "      transport: tls\n", "c.yaml:4: transport: 'tls' is not one of \"\", Cleartext, TLS"},
      {up + "      transport: TLS\n", "c.yaml:3: transportConfig: transport TLS needs tls.serverName"},
      {up + "      transport: TLS\n      tls: {caBundle: " + ca + "}\n", "c.yaml:5: tls: missing 'serverName'"},
      {up + "      transport: TLS\n      tls: {serverName: \"\"}\n", "c.yaml:5: serverName: '' is not a domain name"},
      {up + "      transport: TLS\n      tls: {serverName: 'a b..c'}\n",
       "c.yaml:5: serverName: 'a b..c' is not a domain name"},
      {up + "      transport: TLS\n      tls: {serverName: d.test, caBundle: /nonexistent/ca.pem}\n",
       "c.yaml:5: caBundle: /nonexistent/ca.pem: No such file or directory"},
      {up + "      transport: TLS\n      tls: {serverName: d.test, caBundle: /}\n",
       "c.yaml:5: caBundle: /: not a regular file"},
      {up + "      transport: TLS\n      tls: {serverName: d.test, caBundle: " + empty + "}\n",
       "c.yaml:5: caBundle: " + empty + ": no PEM certificate in it"},
      {up + "      transport: TLS\n      tls: {serverName: d.test, ca: x}\n",
       "c.yaml:5: tls: unknown key 'ca' (known: serverName, caBundle)"},
      {up + "      transport: Cleartext\n      tls: {serverName: d.test}\n", "c.yaml:5: tls: is for transport TLS"},
      {up + "      tls: {serverName: d.test}\n", "c.yaml:4: tls: is for transport TLS"},
      {"    upstreams: [10.0.0.1]\n    transportConfig: TLS\n", "c.yaml:3: transportConfig: expected a mapping"},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.yaml), c.error) << c.yaml;
}

}  // namespace
}  // namespace rk8s::server
