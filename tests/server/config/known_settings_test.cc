// SPDX-License-Identifier: Apache-2.0
// Every key the server reads (known_settings(): each feature's list) is
// in the chart's values.schema.json, which names no other, and in
// config/example.yaml, live or in its comment of every other key; the
// kustomize base and the chart's values hold none the server does not
// read. A knob added to a feature fails here until the chart and the
// example have it.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <sstream>

#include "common/json.h"
#include "server/config/yaml.h"
#include "tests/server/settings_text.h"

namespace rk8s::server {
namespace {

using Keys = std::set<std::string>;
using test::Strings;

Keys server_keys() {
  Keys out;
  for (const SettingKeys& s : known_settings())
    for (std::string_view k : s.keys) out.insert(s.path.empty() ? std::string(k) : s.path + "." + std::string(k));
  return out;
}

std::string below(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// The dotted keys of a YAML value: a mapping's keys and what is below
// them, a list's items under the list's key; stubDomains' keys are zones.
void yaml_keys(const YAML::Node& n, const std::string& path, Keys& out) {
  if (n.IsSequence())
    for (const YAML::Node& item : n) yaml_keys(item, path, out);
  if (!n.IsMap() || path == "stubDomains") return;
  for (const auto& e : n) {
    std::string key = below(path, e.first.Scalar());
    out.insert(key);
    yaml_keys(e.second, key, out);
  }
}

// The same of a JSON schema: its properties, its items, its $refs to its
// own definitions.
void schema_keys(const Json::Value& root, const Json::Value& s, const std::string& path, Keys& out) {
  if (s.isMember("$ref")) {
    std::string ref = s["$ref"].asString();  // "#/definitions/NAME"
    return schema_keys(root, root["definitions"][ref.substr(ref.rfind('/') + 1)], path, out);
  }
  if (s.isMember("items")) schema_keys(root, s["items"], path, out);
  if (!s.isMember("properties")) return;
  for (const std::string& name : s["properties"].getMemberNames()) {
    out.insert(below(path, name));
    schema_keys(root, s["properties"][name], below(path, name), out);
  }
}

// What `want` holds and `have` does not.
Strings missing(const Keys& want, const Keys& have) {
  Strings out;
  std::set_difference(want.begin(), want.end(), have.begin(), have.end(), std::back_inserter(out));
  return out;
}

TEST(KnownSettings, ListsEachFeaturesKeys) {
  Keys keys = server_keys();
  for (const char* key : {"listen", "cache.serveStale.mode", "limits.httpTimeout", "nodeSetup.daemonSet",
                          "autopath.hostSearch", "servers.forwardPlugin.transportConfig.tls.caBundle",
                          "upstreamResolvers.upstreams.port", "upstreamResolvers.transportConfig.transport"})
    EXPECT_TRUE(keys.count(key)) << key;
  EXPECT_EQ(keys.size(), 79u);
}

TEST(KnownSettings, TheChartsSchemaNamesEachAndNoOther) {
  JsonDoc doc(test::file_text("container/chart/values.schema.json"), "values.schema.json");
  const Json::Value& root = doc.root();
  Keys schema, extra_servers;
  schema_keys(root, root["properties"]["nodeCache"]["properties"]["config"], "", schema);
  EXPECT_EQ(missing(server_keys(), schema), Strings{}) << "read by the server, not in nodeCache.config's schema";
  EXPECT_EQ(missing(schema, server_keys()), Strings{}) << "in nodeCache.config's schema, not read by the server";
  schema_keys(root, root["properties"]["nodeCache"]["properties"]["extraServers"], "servers", extra_servers);
  extra_servers.insert("servers");
  EXPECT_EQ(missing(extra_servers, schema), Strings{}) << "extraServers are servers";
}

// The example's keys, and those of its comment of every other key: the
// lines after the comment's first empty one, read as YAML.
TEST(KnownSettings, TheExampleNamesEach) {
  std::string text = test::file_text("server/config/example.yaml");
  Keys keys;
  yaml_keys(YAML::Load(text), "", keys);
  size_t marker = text.find("\n# Every other key");
  ASSERT_NE(marker, std::string::npos);
  size_t start = text.find("\n#\n", marker);
  ASSERT_NE(start, std::string::npos);
  std::istringstream lines(text.substr(start + 3));
  std::string line, others;
  while (std::getline(lines, line)) {
    ASSERT_TRUE(line.starts_with("# ")) << line;
    others += line.substr(2) + "\n";
  }
  yaml_keys(YAML::Load(others), "", keys);
  EXPECT_EQ(missing(server_keys(), keys), Strings{}) << "read by the server, not in config/example.yaml";
  EXPECT_EQ(missing(keys, server_keys()), Strings{}) << "in config/example.yaml, not read by the server";
}

TEST(KnownSettings, TheKustomizeBaseAndTheChartsValuesHoldNoOther) {
  Keys base, values;
  yaml_keys(YAML::LoadFile("container/node-cache/base/config.yaml"), "", base);
  ASSERT_TRUE(base.count("listen"));
  EXPECT_EQ(missing(base, server_keys()), Strings{}) << "in container/node-cache/base/config.yaml";
  yaml_keys(YAML::LoadFile("container/chart/values.yaml")["nodeCache"]["config"], "", values);
  ASSERT_TRUE(values.count("listen"));
  EXPECT_EQ(missing(values, server_keys()), Strings{}) << "in the chart's nodeCache.config";
}

}  // namespace
}  // namespace rk8s::server
