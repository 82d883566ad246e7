// SPDX-License-Identifier: Apache-2.0
// transportConfig (DNS over TLS to the upstreams): OpenShift's keys on a
// forwardPlugin and on upstreamResolvers, port 853 by default, serverName
// required, the CA bundle a readable PEM file or the system's store.
#include <gtest/gtest.h>

#include <fstream>

#include "common/load_error.h"
#include "server/config/yaml.h"
#include "tests/server/fixture.h"

namespace rk8s::server {
namespace {

const std::string kListen = "listen: [\"127.0.0.1:53\"]\n";
const std::string kCert = "-----BEGIN CERTIFICATE-----\nMAo=\n-----END CERTIFICATE-----\n";

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "transport_test_" + name;
  std::ofstream(path) << text;
  return path;
}

const std::string& resolv_conf() {
  static const std::string path = temp_file("resolv.conf", "nameserver 10.0.0.2\nnameserver 10.0.0.3:5353\n");
  return path;
}

ServerConfig parse(const std::string& yaml) { return parse_config(yaml, "c.yaml", "", resolv_conf()); }

std::string error_of(const std::string& yaml) {
  return test::load_error([&] { parse(yaml); });
}

std::string server(const std::string& forward_plugin) {
  return kListen + "servers:\n- name: s\n  zones: [s.test]\n  forwardPlugin:\n" + forward_plugin;
}

TEST(ConfigTransport, TlsOnAForwardPlugin) {
  std::string ca = temp_file("ca.pem", kCert);
  ServerConfig c = parse(server("    upstreams: [10.0.0.1, \"10.0.0.2:8853\", \"fd00::1\"]\n"
                                "    transportConfig:\n      transport: TLS\n"
                                "      tls: {serverName: dns.example., caBundle: " + ca + "}\n"));
  const ForwardConfig& f = *c.servers.at(0).forward;
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

TEST(ConfigTransport, TlsOnUpstreamResolversWithTheSystemStore) {
  ServerConfig c = parse(kListen +
                         "upstreamResolvers:\n  upstreams:\n  - {type: Network, address: 192.0.2.1}\n"
                         "  - {type: Network, address: 192.0.2.2, port: 53}\n  - type: SystemResolvConf\n"
                         "  transportConfig: {transport: TLS, tls: {serverName: dns.example}}\n");
  std::vector<std::string> texts;
  for (const Upstream& u : c.upstream_resolvers->upstreams) {
    texts.push_back(u.text);
    ASSERT_TRUE(u.tls);
    EXPECT_EQ(u.tls->ca_bundle, "");
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"192.0.2.1:853", "192.0.2.2:53", "10.0.0.2:853"}));
}

TEST(ConfigTransport, CleartextIsUdpAndTcp) {
  for (const char* t : {"transportConfig: {transport: Cleartext}", "transportConfig: {transport: \"\"}",
                        "transportConfig: {}"}) {
    ServerConfig c = parse(server("    upstreams: [10.0.0.1]\n    " + std::string(t) + "\n"));
    const Upstream& u = c.servers.at(0).forward->upstreams.at(0);
    EXPECT_EQ(u.text, "10.0.0.1:53") << t;
    EXPECT_FALSE(u.tls) << t;
  }
}

TEST(ConfigTransport, Errors) {
  std::string ca = temp_file("ca-ok.pem", kCert);
  std::string empty = temp_file("ca-empty.pem", "not a certificate\n");
  std::string up = "    upstreams: [10.0.0.1]\n    transportConfig:\n";
  struct {
    std::string yaml, error;
  } cases[] = {
      {server(up + "      transport: tls\n"), "c.yaml:8: transport: 'tls' is not one of \"\", Cleartext, TLS"},
      {server(up + "      transport: TLS\n"), "c.yaml:7: transportConfig: transport TLS needs tls.serverName"},
      {server(up + "      transport: TLS\n      tls: {caBundle: " + ca + "}\n"), "c.yaml:9: tls: missing 'serverName'"},
      {server(up + "      transport: TLS\n      tls: {serverName: \"\"}\n"), "c.yaml:9: serverName: '' is not a domain name"},
      {server(up + "      transport: TLS\n      tls: {serverName: 'a b..c'}\n"),
       "c.yaml:9: serverName: 'a b..c' is not a domain name"},
      {server(up + "      transport: TLS\n      tls: {serverName: d.test, caBundle: /nonexistent/ca.pem}\n"),
       "c.yaml:9: caBundle: /nonexistent/ca.pem: No such file or directory"},
      {server(up + "      transport: TLS\n      tls: {serverName: d.test, caBundle: /}\n"),
       "c.yaml:9: caBundle: /: not a regular file"},
      {server(up + "      transport: TLS\n      tls: {serverName: d.test, caBundle: " + empty + "}\n"),
       "c.yaml:9: caBundle: " + empty + ": no PEM certificate in it"},
      {server(up + "      transport: TLS\n      tls: {serverName: d.test, ca: x}\n"),
       "c.yaml:9: tls: unknown key 'ca' (known: serverName, caBundle)"},
      {server(up + "      transport: Cleartext\n      tls: {serverName: d.test}\n"), "c.yaml:9: tls: is for transport TLS"},
      {server(up + "      tls: {serverName: d.test}\n"), "c.yaml:8: tls: is for transport TLS"},
      {server("    upstreams: [10.0.0.1]\n    transportConfig: TLS\n"), "c.yaml:7: transportConfig: expected a mapping"},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.yaml), c.error) << c.yaml;
}

}  // namespace
}  // namespace rk8s::server
