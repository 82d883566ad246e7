// SPDX-License-Identifier: Apache-2.0
// autopath in the config file: the option's mode and code, the marker path
// with the node's search domains, and each bad value's error.
#include "server/answer/autopath_settings.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "server/util/dns_text.h"
#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using test::SectionCase;
using test::Strings;

// The node's resolv.conf in these tests.
const FileNames& files() {
  static const FileNames f{"", test::temp_file("autopath.conf", "nameserver 10.0.0.2\nsearch svc.local\n")};
  return f;
}

AutopathSettings read(const std::string& yaml) {
  return test::read_section(yaml, "autopath", [](const Field* f) { return parse_autopath_settings(f, files()); });
}

// The settings as lines a table can name.
Strings summary(const AutopathSettings& a) {
  const char* modes[] = {"on", "off", "formerr", "echo"};
  Strings out = {std::string("autopath ") + modes[int(a.mode)] + " " + std::to_string(a.code)};
  if (a.marker) {
    std::string line = "marker " + name_text(a.marker->marker) + " " + name_text(a.marker->cluster_domain);
    for (const Name& d : a.marker->host_search) line += " " + name_text(d);
    out.push_back(line);
  }
  if (a.cluster_domain) out.push_back("clusterDomain at line " + std::to_string(a.cluster_domain->line()));
  if (a.cuts.schema) out.push_back("schemaCut " + name_text(*a.cuts.schema));
  if (a.cuts.rfc8020) out.push_back("rfc8020Cut " + name_text(*a.cuts.rfc8020));
  return out;
}

TEST(AutopathSettings, EachKeyReadsIntoItsField) {
  const struct {
    std::string yaml, line;
  } cases[] = {
      // Defaults, then each key.
      {"", "autopath on 65431"},
      {"autopath: {code: 65001}\n", "autopath on 65001"},
      {"autopath: {code: 65533}\n", "autopath on 65533"},
      {"autopath: {enabled: false}\n", "autopath off 65431"},
      {"autopath: {enabled: True, code: 65500}\n", "autopath on 65500"},
      {"autopath: {}\n", "autopath on 65431"},
      // The marker path: on with autopath, the node's search domains by default.
      {"", "marker ap.k8s.io. cluster.local. svc.local."},
      {"autopath: {marker: ap.example, clusterDomain: k.test}\n", "marker ap.example. k.test. svc.local."},
      {"autopath: {marker: ap.example, clusterDomain: k.test}\n", "clusterDomain at line 1"},
      {"autopath:\n  enabled: false\n  clusterDomain: k.test\n", "clusterDomain at line 3"},
      {"autopath: {hostSearch: [a.example, b.example]}\n", "marker ap.k8s.io. cluster.local. a.example. b.example."},
      {"autopath: {hostSearch: []}\n", "marker ap.k8s.io. cluster.local."},
      {"autopath: {resolvConf: " + test::temp_file("node.conf", "search n.example\n") + "}\n",
       "marker ap.k8s.io. cluster.local. n.example."},
      // The walk's cuts: off unless asked for, with the cluster domain.
      {"autopath: {clusterDomain: k.test, schemaCut: true}\n", "schemaCut k.test."},
      {"autopath: {enabled: false, clusterDomain: k.test, schemaCut: true}\n", "schemaCut k.test."},
      {"autopath: {rfc8020Cut: true}\n", "rfc8020Cut cluster.local."},
      {"autopath: {clusterDomain: k.test, rfc8020Cut: true}\n", "rfc8020Cut k.test."},
  };
  for (const auto& c : cases) {
    Strings lines = summary(read(c.yaml));
    EXPECT_NE(std::find(lines.begin(), lines.end(), c.line), lines.end()) << c.yaml << "--- wanted: " << c.line;
  }
  EXPECT_FALSE(read("autopath: {enabled: false}\n").marker);
  EXPECT_FALSE(read("").cluster_domain);
  EXPECT_FALSE(read("").cuts.schema);
  EXPECT_FALSE(read("autopath: {clusterDomain: k.test, schemaCut: false}\n").cuts.schema);
  EXPECT_FALSE(read("").cuts.rfc8020);
  EXPECT_FALSE(read("autopath: {rfc8020Cut: false}\n").cuts.rfc8020);
}

TEST(AutopathSettings, Errors) {
  const SectionCase cases[] = {
      {"autopath: true\n", "c.yaml:1: autopath: expected a mapping"},
      {"autopath: {code: 65000}\n", "c.yaml:1: code: expected a number from 65001 to 65533, got '65000'"},
      {"autopath: {code: 65534}\n", "c.yaml:1: code: expected a number"},
      {"autopath: {code: -1}\n", "c.yaml:1: code: expected a number"},
      {"autopath:\n  enabled: yes\n", "c.yaml:2: enabled: expected true or false, got 'yes'"},
      {"autopath: {marker: '.'}\n", "c.yaml:1: marker: '.' is not a domain name below the root"},
      {"autopath: {clusterDomain: 'a..b'}\n", "c.yaml:1: clusterDomain: 'a..b' is not a domain name below the root"},
      {"autopath: {enabled: false, clusterDomain: 'a..b'}\n", "c.yaml:1: clusterDomain: 'a..b' is not"},
      {"autopath: {hostSearch: [ok.example, '']}\n", "c.yaml:1: hostSearch: '' is not a domain name below the root"},
      {"autopath: {hostSearch: [], resolvConf: /etc/resolv.conf}\n",
       "c.yaml:1: resolvConf: is read only without hostSearch"},
      {"autopath: {resolvConf: /nonexistent/resolv.conf}\n",
       "c.yaml:1: resolvConf: /nonexistent/resolv.conf: No such file or directory"},
      {"autopath: {schemaCut: true}\n", "c.yaml:1: schemaCut: needs clusterDomain"},
      {"autopath: {clusterDomain: k.test, schemaCut: 1}\n", "c.yaml:1: schemaCut: expected true or false"},
      {"autopath: {rfc8020Cut: on}\n", "c.yaml:1: rfc8020Cut: expected true or false"},
      {"autopath: {mode: echo}\n",
       "c.yaml:1: autopath: unknown key 'mode' (known: enabled, code, marker, clusterDomain, hostSearch, resolvConf, "
       "schemaCut, rfc8020Cut)"},
  };
  test::expect_section_errors(cases, "autopath", [](const Field* f) { return parse_autopath_settings(f, files()); });
}

}  // namespace
}  // namespace rk8s::server
