// SPDX-License-Identifier: Apache-2.0
// The bridge between the webhook's JSON and the nodes inject edits: plain
// scalars read as YAML 1.2's core schema reads them, quoted ones as
// strings, and JSON through YAML and back unchanged.
#include "tools/inject/yaml_json.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"
#include "tools/inject/yaml_stream.h"

namespace rk8s::tools {
namespace {

struct JsonCase {
  std::string yaml;
  std::string json;
};

TEST(JsonOf, PlainScalarsAsTheCoreSchemaReadsThem) {
  const JsonCase cases[] = {
      {"a: 5", "{\"a\":5}"},
      {"a: -12", "{\"a\":-12}"},
      {"a: \"5\"", "{\"a\":\"5\"}"},
      {"a: '5'", "{\"a\":\"5\"}"},
      {"a: 1.5", "{\"a\":1.5}"},
      {"a: 1e3", "{\"a\":1000.0}"},
      {"a: .5", "{\"a\":0.5}"},
      {"a: true", "{\"a\":true}"},
      {"a: False", "{\"a\":false}"},
      {"a: ~", "{\"a\":null}"},
      {"a:", "{\"a\":null}"},
      {"a: NULL", "{\"a\":null}"},
      // YAML 1.1's words and forms are strings in 1.2's core schema.
      {"a: yes", "{\"a\":\"yes\"}"},
      {"a: on", "{\"a\":\"on\"}"},
      {"a: 0x10", "{\"a\":\"0x10\"}"},
      {"a: 1_000", "{\"a\":\"1_000\"}"},
      {"a: 10m", "{\"a\":\"10m\"}"},
      // Past int64: read as a real.
      {"a: 99999999999999999999", "{\"a\":1e+20}"},
      {"a: [1, x, {b: c}]", "{\"a\":[1,\"x\",{\"b\":\"c\"}]}"},
      {"a: {}", "{\"a\":{}}"},
  };
  for (const JsonCase& c : cases) EXPECT_EQ(c.json, json_text(json_of(YAML::Load(c.yaml)))) << c.yaml;
}

TEST(YamlOf, JsonThroughYamlAndBackIsUnchanged) {
  const char* cases[] = {
      "{\"a\":\"5\",\"b\":5,\"c\":true,\"d\":null,\"e\":\"on\",\"f\":\"null\"}",
      "{\"l\":[1,\"x\",[],{}],\"r\":1.5,\"n\":-3,\"big\":9007199254740993}",
      "{\"s\":\"two\\nlines\\n\",\"t\":\"\",\"u\":\"caf\\u00e9\",\"key with: colon\":\"#not a comment\"}",
  };
  for (const char* text : cases) {
    Json::Value v = test::parse_json(text);
    EXPECT_EQ(v, json_of(yaml_of(v))) << text;
    // As text, too: what the webhook's edit is written through.
    EXPECT_EQ(v, json_of(YAML::Load(emit_yaml(yaml_of(v))))) << text;
  }
}

}  // namespace
}  // namespace rk8s::tools
