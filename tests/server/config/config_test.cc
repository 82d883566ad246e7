// SPDX-License-Identifier: Apache-2.0
// The configuration file (--config) and the command line that leads to it:
// the document's walk, its own keys, each section handed to its feature's
// parser (whose keys are tested beside it), every error with its line.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "common/load_error.h"
#include "server/config/flags.h"
#include "server/config/yaml.h"
#include "server/util/dns_text.h"
#include "server/util/names.h"
#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using test::Strings;

const char kFixtures[] = "tests/fixtures";
const std::string kListen = "listen: [\"127.0.0.1:53\"]\n";
const std::string kResolver =
    "upstreamResolvers: {upstreams: [{type: Network, address: 192.0.2.1}]}\n";

// The resolv.conf that `type: SystemResolvConf` reads in these tests.
const std::string& test_resolv_conf() {
  static const std::string path =
      test::temp_file("resolv.conf", "nameserver 10.0.0.2\nnameserver fd00::2\nsearch svc.local\n");
  return path;
}

ServerConfig parse(const std::string& yaml) {
  return parse_config(yaml, "c.yaml", kFixtures, test_resolv_conf());
}

// The configuration as lines a table can name.
Strings summary(const ServerConfig& c) {
  const char* modes[] = {"on", "off"};
  std::string listen = "listen";
  for (const Endpoint& e : c.listen) listen += " " + e.text;
  Strings out = {listen, std::string("autopath ") + modes[int(c.autopath)] + " " + std::to_string(c.autopath_code)};
  if (c.health) out.push_back("health " + c.health->text);
  if (c.metrics) out.push_back("metrics " + c.metrics->text);
  for (const ZoneServer& s : c.servers) {
    std::string line = "server " + s.name + ":";
    for (const Name& z : s.zones) line += " " + name_text(z);
    if (s.forward) line += " forward " + test::forward_text(*s.forward);
    for (const std::string& f : s.zone_files) line += " zone " + f;
    if (!s.cluster_file.empty()) line += " cluster " + s.cluster_file + " " + s.cluster_domain;
    out.push_back(line);
  }
  if (c.upstream_resolvers)
    out.push_back("upstreamResolvers " + test::forward_text(*c.upstream_resolvers));
  if (c.log_level != LogLevel::normal)
    out.push_back(std::string("log ") + (c.log_level == LogLevel::debug ? "Debug " : "Trace ") +
                  (c.query_log_file.empty() ? "-" : c.query_log_file));
  if (c.marker) {
    std::string line = "marker " + name_text(c.marker->marker) + " " + name_text(c.marker->cluster_domain);
    for (const Name& d : c.marker->host_search) line += " " + name_text(d);
    out.push_back(line);
  }
  return out;
}

std::string joined(const Strings& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

struct KeyCase {
  std::string yaml;
  std::string line;  // one line of the summary
};

TEST(ConfigKeys, EachKeyReadsIntoItsField) {
  const std::string absolute = test::temp_file("absolute.zone", "");
  const KeyCase cases[] = {
      {kListen + kResolver, "listen 127.0.0.1:53"},
      {"listen: [\"127.0.0.1:53\", \"[::1]:5353\"]\n" + kResolver,
       "listen 127.0.0.1:53 [::1]:5353"},
      {"listen:\n  - 127.0.0.1:53\n  - '[::1]:53'\n" + kResolver, "listen 127.0.0.1:53 [::1]:53"},
      {kListen + kResolver + "health: 127.0.0.1:8080\n", "health 127.0.0.1:8080"},
      {kListen + kResolver + "metrics: '[::1]:9253'\n", "metrics [::1]:9253"},
      // autopath, read by answer/autopath_settings.cc, carried over.
      {kListen + kResolver + "autopath: {enabled: false}\n", "autopath off 65431"},
      // The marker path: on with autopath, the node's search domains by default.
      {kListen + kResolver, "marker ap.k8s.io. cluster.local. svc.local."},
      {kListen + kResolver + "autopath: {marker: ap.example, clusterDomain: k.test}\n" +
           "servers: [{name: k, zones: [k.test], forwardPlugin: {upstreams: [10.0.0.1]}}]\n",
       "marker ap.example. k.test. svc.local."},
      {kListen + kResolver + "logLevel: Debug\n", "log Debug -"},
      {kListen + kResolver + "logLevel: Trace\nqueryLog: q.log\n", std::string("log Trace ") + kFixtures + "/q.log"},
      {kListen + kResolver + "logLevel: Trace\nqueryLog: /var/log/q.log\n", "log Trace /var/log/q.log"},
      // Servers: forwarding, and data from files.
      {kListen + "servers:\n- name: c\n  zones: [cluster.local, in-addr.arpa]\n"
                 "  forwardPlugin: {upstreams: [10.96.0.11, '10.96.0.12:5353', '[fd00::11]:53', "
                 "'fd00::12']}\n",
       "server c: cluster.local. in-addr.arpa. forward Random 10.96.0.11:53 10.96.0.12:5353 "
       "[fd00::11]:53 [fd00::12]:53"},
      {kListen +
           "servers:\n- name: data\n  zones: [Example.COM.]\n"
           "  zoneFiles: [example.com.zone, " +
           absolute + "]\n",
       "server data: Example.COM. zone tests/fixtures/example.com.zone zone " + absolute},
      {kListen + "servers:\n- name: k8s\n  zones: [cluster.local]\n  clusterFile: cluster.json\n",
       "server k8s: cluster.local. cluster tests/fixtures/cluster.json cluster.local"},
      {kListen + "servers:\n- name: k8s\n  zones: [k.test]\n  clusterFile: cluster.json\n"
                 "  clusterDomain: k.test\n",
       "server k8s: k.test. cluster tests/fixtures/cluster.json k.test"},
      {kListen + "servers:\n- name: all\n  zones: ['.']\n  zoneFiles: [corp.example.zone]\n",
       "server all: . zone tests/fixtures/corp.example.zone"},
      {kListen + kResolver, "upstreamResolvers Sequential 192.0.2.1:53"},
      // Anchors and aliases are YAML's own.
      {kListen +
           "servers:\n- name: a\n  zones: [a.test]\n  forwardPlugin: &up {upstreams: [10.0.0.1]}\n"
           "- name: b\n  zones: [b.test]\n  forwardPlugin: *up\n",
       "server b: b.test. forward Random 10.0.0.1:53"},
  };
  for (const KeyCase& c : cases) {
    Strings lines = summary(parse(c.yaml));
    EXPECT_NE(std::find(lines.begin(), lines.end(), c.line), lines.end())
        << c.yaml << "--- wanted:\n"
        << c.line << "\n--- got:\n"
        << joined(lines);
  }
}

struct ErrorCase {
  std::string yaml;
  std::string error;  // the message's start
};

std::string error_of(const std::string& yaml) {
  return test::load_error([&] { parse(yaml); });
}

// Each case's error starts as it says.
void expect_errors(std::span<const ErrorCase> cases) {
  for (const ErrorCase& c : cases) {
    std::string error = error_of(c.yaml);
    EXPECT_EQ(error.substr(0, c.error.size()), c.error) << c.yaml << "--- got: " << error;
  }
}

// ${NAME}: the environment's value (the DaemonSet's settings, kubelet's
// Service variables); an item that is one variable set empty is left out;
// stubDomains in kube-dns's form, a map or its JSON as a string.
TEST(ConfigEnvironment, VariablesAndStubDomains) {
  setenv("RK8S_TEST_LOCAL", "169.254.53.10", 1);
  setenv("RK8S_TEST_KUBE_DNS", "", 1);
  setenv("RK8S_TEST_UPSTREAM_SERVICE_HOST", "172.20.0.11", 1);
  setenv("RK8S_TEST_STUBS", R"({"corp.example": ["10.1.0.53", "10.1.0.54:5353"], "acme.test": ["fd00::53"]})", 1);
  setenv("RK8S_TEST_NO_STUBS", "{}", 1);
  const KeyCase cases[] = {
      {"listen: ['${RK8S_TEST_LOCAL}', '${RK8S_TEST_KUBE_DNS}']\n" + kResolver, "listen 169.254.53.10:53"},
      {"listen: ['${RK8S_TEST_LOCAL}:5353', 'fd00::a']\n" + kResolver, "listen 169.254.53.10:5353 [fd00::a]:53"},
      {kListen + "servers:\n- name: c\n  zones: [cluster.local]\n"
                 "  forwardPlugin: {upstreams: ['${RK8S_TEST_UPSTREAM_SERVICE_HOST}']}\n",
       "server c: cluster.local. forward Random 172.20.0.11:53"},
      {kListen + kResolver + "stubDomains: '${RK8S_TEST_STUBS}'\n",
       "server stubDomains corp.example: corp.example. forward Random 10.1.0.53:53 10.1.0.54:5353"},
      {kListen + kResolver + "stubDomains: '${RK8S_TEST_STUBS}'\n",
       "server stubDomains acme.test: acme.test. forward Random [fd00::53]:53"},
      {kListen + kResolver + "stubDomains: {corp.example: [10.1.0.53]}\n",
       "server stubDomains corp.example: corp.example. forward Random 10.1.0.53:53"},
  };
  for (const KeyCase& c : cases) {
    Strings lines = summary(parse(c.yaml));
    EXPECT_NE(std::find(lines.begin(), lines.end(), c.line), lines.end())
        << c.yaml << "--- wanted:\n" << c.line << "\n--- got:\n" << joined(lines);
  }
  EXPECT_EQ(parse(kListen + kResolver + "stubDomains: '${RK8S_TEST_NO_STUBS}'\n").servers.size(), 0u);
  EXPECT_EQ(parse(kListen + kResolver + "stubDomains: ''\n").servers.size(), 0u);
  unsetenv("RK8S_TEST_UNSET");
  const ErrorCase errors[] = {
      {"listen: ['${RK8S_TEST_UNSET}:53']\n" + kResolver,
       "c.yaml:1: listen: '${RK8S_TEST_UNSET}:53': the environment variable RK8S_TEST_UNSET is not set"},
      {"listen: ['${RK8S_TEST_KUBE_DNS}']\n" + kResolver, "c.yaml:1: listen: needs at least 1 item"},
      {"listen: ['${RK8S_TEST_KUBE_DNS}:53']\n" + kResolver,
       "c.yaml:1: listen: ':53' is not ADDR, ADDR:PORT or [IPV6ADDR]:PORT"},
      {"listen: ['${1X}']\n" + kResolver, "c.yaml:1: listen: '${1X}': ${ without a variable name and } after it"},
      {"listen: ['${RK8S_TEST_LOCAL']\n" + kResolver,
       "c.yaml:1: listen: '${RK8S_TEST_LOCAL': ${ without a variable name and } after it"},
      {kListen + kResolver + "stubDomains:\n  corp.example: []\n",
       "c.yaml:4: corp.example: needs at least 1 item"},
      {kListen + kResolver + "stubDomains: '{\"corp.example\": [\"10.1.0.300\"]}'\n",
       "c.yaml:3: corp.example: '10.1.0.300' is not IP, IP:PORT or [IPV6]:PORT"},
      {kListen + kResolver + "stubDomains: '{\"corp.example\": '\n",
       "c.yaml:3: stubDomains: not a map of zones to upstreams"},
      {kListen + "servers:\n- name: s\n  zones: [corp.example]\n  forwardPlugin: {upstreams: [10.0.0.1]}\n"
                 "stubDomains: {corp.example: [10.1.0.53]}\n",
       "c.yaml:6: stubDomains: corp.example. is already served by 's'"},
  };
  for (const ErrorCase& c : errors) EXPECT_EQ(error_of(c.yaml).substr(0, c.error.size()), c.error) << c.yaml;
}

TEST(ConfigErrors, FileLineAndWhat) {
  const std::string server = "servers:\n- name: s\n  zones: [s.test]\n";
  const ErrorCase cases[] = {
      // The document.
      {"", "c.yaml:1: expected a mapping"},
      {"- a\n", "c.yaml:1: expected a mapping"},
      {kListen + kResolver + "---\nlisten: []\n", "c.yaml:3: one YAML document only"},
      {kListen + kResolver + "---\n", "c.yaml:3: one YAML document only"},
      {",", "c.yaml:1: one YAML document only"},  // yaml-cpp's LoadAll never ends here
      {kListen + "servers:\n- name: s\n\tzones: [s.test]\n", "c.yaml:4: a tab in the indentation (YAML indents with spaces)"},
      {kListen + kResolver + "lisen: 1\n",
       "c.yaml:3: unknown key 'lisen' (known: listen, health, metrics, corednsMetrics, autopath, cache, limits, "
       "nodeSetup, servers, stubDomains, upstreamResolvers, logLevel, queryLog)"},
      {kListen + kResolver + "logLevel: debug\n",
       "c.yaml:3: logLevel: 'debug' is not one of Normal, Debug, Trace"},
      {kListen + kResolver + "queryLog: q.log\n", "c.yaml:3: queryLog: needs logLevel Debug or Trace"},
      {kListen + kResolver + "logLevel: Debug\nqueryLog: \"\"\n", "c.yaml:4: queryLog: expected a file name"},
      {kListen + kResolver + kListen, "c.yaml:3: 'listen' a second time"},
      {kListen + kResolver + "? [a]\n: 1\n", "c.yaml:3: expected a key"},
      {kListen, "c.yaml:1: no servers and no upstreamResolvers: nothing to answer with"},
      {kListen + "servers: []\n", "c.yaml:1: no servers and no upstreamResolvers"},
      {kListen + "upstreamResolvers: {upstreams: [{type: Network, address: 127.0.0.1}]}\n",
       "c.yaml:2: upstreamResolvers: upstream 127.0.0.1:53 is this server's own listen address 127.0.0.1:53"},
      {kListen + "servers:\n- {name: c, zones: [c.local], forwardPlugin: {upstreams: [\"127.0.0.1:53\"]}}\n",
       "c.yaml:3: servers: upstream 127.0.0.1:53 is this server's own listen address"},
      // Each feature's section, by its parser (tested beside it), with the file's name.
      {kListen + kResolver + "autopath: {code: 1}\n", "c.yaml:3: code: expected a number from 65001 to 65533"},
      {kListen + kResolver + "cache: {capacity: 0}\n", "c.yaml:3: capacity: expected a number from 1 to"},
      {kListen + kResolver + "limits: {httpTimeout: 0s}\n", "c.yaml:3: httpTimeout: must be at least 1s"},
      {kListen + kResolver + "nodeSetup: {lockFile: run/x}\n", "c.yaml:3: lockFile: must be an absolute path"},
      {kListen + server + "  forwardPlugin: {upstreams: []}\n", "c.yaml:5: upstreams: needs at least 1"},
      {kListen + "upstreamResolvers: {policy: Random}\n", "c.yaml:2: upstreamResolvers: missing 'upstreams'"},
      // yaml-cpp's own errors, in the same form.
      {"listen: [\"127.0.0.1:53\"\n", "c.yaml:2: end of sequence flow not found"},
      {kListen + "a: *nowhere\n", "c.yaml:2: the referenced anchor is not defined"},
      {kListen + "\tservers: []\n", "c.yaml:2: "},
      // listen, health, metrics.
      {kResolver, "c.yaml:1: missing 'listen'"},
      {"listen: []\n" + kResolver, "c.yaml:1: listen: needs at least 1 item"},
      {"listen: 127.0.0.1:53\n" + kResolver, "c.yaml:1: listen: expected a list"},
      {"listen:\n\n" + kResolver, "c.yaml:1: listen: expected a list"},
      {"listen:\n  - 127.0.0.1:53\n  - localhost:53\n" + kResolver,
       "c.yaml:3: listen: 'localhost:53' is not ADDR, ADDR:PORT or [IPV6ADDR]:PORT"},
      {"listen: ['127.0.0.1:99999']\n" + kResolver, "c.yaml:1: listen: '127.0.0.1:99999' is not"},
      {"listen: [[a]]\n" + kResolver, "c.yaml:1: listen: expected text"},
      {kListen + kResolver + "health: 127.0.0.1\n",
       "c.yaml:3: health: '127.0.0.1' is not ADDR:PORT"},
      {kListen + kResolver + "metrics: {a: 1}\n", "c.yaml:3: metrics: expected text"},
  };
  expect_errors(cases);
}

TEST(ConfigErrors, Servers) {
  const std::string server = "servers:\n- name: s\n  zones: [s.test]\n";
  const std::string forward = "  forwardPlugin: {upstreams: [10.0.0.1]}\n";
  const ErrorCase cases[] = {
      {kListen + "servers: {name: s}\n", "c.yaml:2: servers: expected a list"},
      {kListen + "servers:\n- zones: [a]\n" + forward, "c.yaml:3: servers: missing 'name'"},
      {kListen + "servers:\n- name: ''\n  zones: [a]\n" + forward,
       "c.yaml:3: name: must not be empty"},
      {kListen + server + forward + "- name: s\n  zones: [t.test]\n" + forward,
       "c.yaml:6: name: a second server named 's'"},
      {kListen + "servers:\n- name: s\n" + forward, "c.yaml:3: servers: missing 'zones'"},
      {kListen + "servers:\n- name: s\n  zones: []\n" + forward,
       "c.yaml:4: zones: needs at least 1"},
      {kListen + "servers:\n- name: s\n  zones: ['a..b']\n" + forward,
       "c.yaml:4: zones: 'a..b' is not a domain name"},
      {kListen + "servers:\n- name: s\n  zones: ['']\n" + forward,
       "c.yaml:4: zones: '' is not a domain"},
      {kListen + "servers:\n- name: s\n  zones:\n  - a.test\n  - A.Test.\n" + forward,
       "c.yaml:6: zones: A.Test. is already served by 's'"},
      {kListen + server + forward + "- name: t\n  zones: [S.TEST]\n" + forward,
       "c.yaml:7: zones: S.TEST. is already served by 's'"},
      {kListen + server, "c.yaml:3: servers: needs forwardPlugin, or zoneFiles and/or clusterFile"},
      {kListen + server + forward + "  zoneFiles: [example.com.zone]\n",
       "c.yaml:5: forwardPlugin: a server forwards or serves zoneFiles/clusterFile, not both"},
      {kListen + server + "  zoneFiles: []\n", "c.yaml:5: zoneFiles: needs at least 1 item"},
      {kListen + server + "  zoneFiles:\n  - example.com.zone\n  - nowhere.zone\n",
       "c.yaml:7: zoneFiles: tests/fixtures/nowhere.zone: No such file or directory"},
      {kListen + server + "  clusterFile: ../fixtures\n",
       "c.yaml:5: clusterFile: tests/fixtures/../fixtures: not a regular file"},
      {kListen + server + "  clusterFile: /dev/null\n",
       "c.yaml:5: clusterFile: /dev/null: not a regular file"},
      {kListen + server + "  clusterFile: ''\n", "c.yaml:5: clusterFile: expected a file name"},
      {kListen + server + "  zoneFiles: [example.com.zone]\n  clusterDomain: x.test\n",
       "c.yaml:6: clusterDomain: needs clusterFile"},
      {kListen + server + "  clusterFile: cluster.json\n  clusterDomain: .\n",
       "c.yaml:6: clusterDomain: '.' is not a domain name below the root"},
      {kListen + server + "  zoneFiles: [example.com.zone]\n  forward: {}\n",
       "c.yaml:6: servers: unknown key 'forward'"},
  };
  expect_errors(cases);
}

// A cluster domain the file names (autopath.clusterDomain, autopath on or
// off) must be held by a server's zone, itself or a parent: else every
// Service name would go to upstreamResolvers, the node's resolvers, and be
// NXDOMAIN. A file that names none is not held to cluster.local.
TEST(ConfigClusterDomain, SomeServerHoldsIt) {
  const std::string forward = "forwardPlugin: {upstreams: [10.0.0.1]}";
  auto with = [&](const std::string& domain, const std::string& zones) {
    return kListen + kResolver + "autopath: {clusterDomain: " + domain + "}\n" +
           "servers: [{name: s, zones: [" + zones + "], " + forward + "}]\n";
  };
  const std::string held[] = {
      with("cluster.local", "cluster.local, in-addr.arpa"),
      with("cluster.local", "Cluster.LOCAL."),
      with("k8s.corp.example", "corp.example"),
      with("cluster.local", "'.'"),
      kListen + kResolver + "autopath: {enabled: false, clusterDomain: cluster.local}\n" +
          "servers: [{name: s, zones: [cluster.local], " + forward + "}]\n",
      kListen + kResolver + "autopath: {clusterDomain: cluster.local}\n" +
          "stubDomains: {cluster.local: [10.0.0.2]}\n",
      kListen + kResolver,  // no clusterDomain named
      kListen + kResolver + "servers: [{name: s, zones: [example.com], " + forward + "}]\n",
  };
  for (const std::string& yaml : held) EXPECT_EQ(error_of(yaml), "(accepted)") << yaml;
  const ErrorCase refused[] = {
      {with("cluster.local", "example.com, in-addr.arpa"),
       "c.yaml:3: clusterDomain: no server holds the cluster domain cluster.local., so every name under it "
       "would go to upstreamResolvers, which know no Service (NXDOMAIN); the servers hold example.com. ('s'), "
       "in-addr.arpa. ('s'): add cluster.local. to the zones of the server forwarding to the cluster's DNS"},
      {with("cluster.local", "svc.cluster.local"), "c.yaml:3: clusterDomain: no server holds the cluster domain cluster.local.,"},
      {with("k8s.example", "cluster.local"), "c.yaml:3: clusterDomain: no server holds the cluster domain k8s.example.,"},
      {kListen + kResolver + "autopath:\n  enabled: false\n  clusterDomain: cluster.local\n",
       "c.yaml:5: clusterDomain: no server holds the cluster domain cluster.local., so every name under it "
       "would go to upstreamResolvers, which know no Service (NXDOMAIN); the servers hold nothing:"},
  };
  expect_errors(refused);
}

TEST(ConfigFile, FilesRelativeToItsDirectory) {
  std::string dir = testing::TempDir() + "config_test_dir";
  mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/a.zone") << "";
  std::string path = dir + "/c.yaml";
  std::string absolute = test::temp_file("absolute.zone", "");
  std::ofstream(path) << kListen +
                             "servers:\n- name: s\n  zones: [a.test]\n  zoneFiles: [a.zone, " +
                             absolute + "]\n";
  ServerConfig c = load_config_file(path);
  ASSERT_EQ(c.servers.size(), 1u);
  EXPECT_EQ(c.servers[0].zone_files, (Strings{dir + "/a.zone", absolute}));
}

TEST(ConfigFile, UnreadableConfigFile) {
  try {
    load_config_file("/nonexistent/c.yaml");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {  // the file, no line: there is none
    EXPECT_STREQ(e.what(), "/nonexistent/c.yaml: No such file or directory");
  }
}

TEST(ConfigFile, ExampleLoadsAndIsTheReadmes) {
  std::string text = test::file_text("server/config/example.yaml");
  ASSERT_FALSE(text.empty());
  size_t start = text.find("listen:");
  std::string body = text.substr(start, text.find("\n\n# Every other key") + 1 - start);
  EXPECT_NE(test::file_text("server/README.md").find("```yaml\n" + body + "```\n"), std::string::npos);
  ServerConfig c = parse_config(text, "example.yaml", kFixtures, test_resolv_conf());
  EXPECT_EQ(joined(summary(c)),
            "listen 169.254.53.10:53 [fd00::a]:53\n"
            "autopath on 65431\n"
            "health 169.254.53.10:9255\n"
            "metrics 0.0.0.0:9254\n"
            "server cluster: cluster.local. in-addr.arpa. ip6.arpa. forward Sequential "
            "10.96.0.10:53 10.96.0.11:53 [fd00::10]:53\n"
            "server test-data: example.com. corp.example. sandbox.test. "
            "zone tests/fixtures/example.com.zone zone tests/fixtures/corp.example.zone "
            "cluster tests/fixtures/cluster.json sandbox.test\n"
            "upstreamResolvers Sequential 10.0.0.2:53 [fd00::2]:53 192.0.2.53:53\n"
            "marker ap.k8s.io. cluster.local. svc.local.\n");
}

// argv for the parsers, from strings.
struct Argv {
  explicit Argv(Strings args) : strings(std::move(args)) {
    strings.insert(strings.begin(), "resolv-k8s-server");
    for (std::string& s : strings) pointers.push_back(s.data());
  }
  int argc() { return int(pointers.size()); }
  char** argv() { return pointers.data(); }
  Strings strings;
  std::vector<char*> pointers;
};

ServerConfig command_line(Strings args) {
  Argv a(std::move(args));
  return parse_command_line(a.argc(), a.argv());
}

TEST(ConfigCommandLine, FlagsAreOneClosedWorldForEveryName) {
  ServerConfig c = command_line({"--listen", "127.0.0.1:53", "--zone", "a.zone", "--zone", "b.zone",
                                 "--cluster", "c.json", "--cluster-domain", "k.test", "--autopath",
                                 "off", "--autopath-code", "65000", "--metrics", "127.0.0.1:9153"});
  EXPECT_EQ(joined(summary(c)),
            "listen 127.0.0.1:53\n"
            "autopath off 65000\n"
            "metrics 127.0.0.1:9153\n"
            "server closed-world: . zone a.zone zone b.zone cluster c.json k.test\n");
}

TEST(ConfigCommandLine, MarkerFlags) {
  ServerConfig c = command_line({"--listen", "127.0.0.1:53", "--cluster-domain", "k.test",
                                 "--host-search", "a.example", "--host-search", "b.example"});
  EXPECT_EQ(summary(c).back(), "marker ap.k8s.io. k.test. a.example. b.example.");
  c = command_line({"--listen", "127.0.0.1:53", "--marker", "ap.example"});
  EXPECT_EQ(summary(c).back(), "marker ap.example. cluster.local.");
}

// --tcp-nodelay goes with either; the test faults' flags are
// server/faults/'s (tests/server/faults/flags_test.cc).
TEST(ConfigCommandLine, ConfigFileWithTcpNodelay) {
  std::string path = test::temp_file("knobs.yaml", kListen + kResolver + "autopath: {code: 65500}\n");
  ServerConfig c = command_line({"--config", path, "--tcp-nodelay", "off"});
  EXPECT_EQ(summary(c)[1], "autopath on 65500");
  EXPECT_FALSE(c.tcp_nodelay);
  EXPECT_TRUE(command_line({"--config", path}).tcp_nodelay);
}

struct CommandLineError {
  Strings args;
  std::string error;
};

TEST(ConfigCommandLine, Errors) {
  std::string path = test::temp_file("ok.yaml", kListen + kResolver);
  std::string bad = test::temp_file("bad.yaml", kListen + kResolver + "cache: {positiveTTL: 30}\n");
  const CommandLineError cases[] = {
      {{}, "give --config FILE (as the DaemonSet does) or --listen ADDR:PORT (see --help)"},
      {{"--config", path, "--listen", "127.0.0.1:53"},
       "--listen: not with --config (the file says it)"},
      {{"--config", path, "--zone", "a.zone"}, "--zone: not with --config (the file says it)"},
      {{"--config", path, "--autopath", "off"}, "--autopath: not with --config (the file says it)"},
      {{"--config", path, "--autopath-code", "65000"}, "--autopath-code: not with --config"},
      {{"--config", path, "--metrics", "127.0.0.1:1"}, "--metrics: not with --config"},
      {{"--config", ""}, "--config: bad value ''"},
      {{"--config"}, "--config: missing value (see --help)"},
      {{"--config", bad}, bad + ":3: positiveTTL: '30' needs a unit"},
      {{"--config", "/nonexistent.yaml"}, "/nonexistent.yaml: No such file or directory"},
      {{"--configure", path}, "unknown flag --configure (see --help)"},
      {{"--bogus"}, "unknown flag --bogus (see --help)"},
  };
  for (const CommandLineError& c : cases) {
    std::string error = "(no error)";
    try {
      command_line(c.args);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
    EXPECT_EQ(error.substr(0, c.error.size()), c.error) << joined(c.args);
  }
}

TEST(ConfigCommandLine, HelpPrintsUsageWithConfigAndExits) {
  EXPECT_EXIT(command_line({"--help"}), testing::ExitedWithCode(0), "");
  EXPECT_NE(std::string(kUsage).find("--config FILE"), std::string::npos);
}

}  // namespace
}  // namespace rk8s::server
