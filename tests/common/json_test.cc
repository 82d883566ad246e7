// SPDX-License-Identifier: Apache-2.0
#include "common/json.h"

#include <gtest/gtest.h>

#include "common/load_error.h"

namespace rk8s {
namespace {

TEST(JsonValues, ParsesEveryKindAndKeepsLines) {
  JsonDoc doc("{\"a\": [1, -2.5e1, true, false, null],\n \"b\": \"x\\u00e9\\ud83d\\ude00\\n\",\n"
              "\"c\": {}}",
              "t.json");
  const Json::Value& v = doc.root();
  ASSERT_TRUE(v.isObject());
  const Json::Value& a = v["a"];
  ASSERT_TRUE(a.isArray() && a.size() == 5);
  EXPECT_EQ(a[1].asDouble(), -25);
  EXPECT_TRUE(a[2].asBool());
  EXPECT_TRUE(a[4].isNull());
  EXPECT_EQ(v["b"].asString(), "x\xc3\xa9\xf0\x9f\x98\x80\n");
  EXPECT_EQ(doc.line(v), 1);
  EXPECT_EQ(doc.line(v["b"]), 2);
  EXPECT_EQ(doc.line(v["c"]), 3);
  EXPECT_STREQ(json_kind_name(a[0]), "number");
  EXPECT_STREQ(json_kind_name(v["c"]), "object");
}

struct BadJson {
  const char* text;
  const char* error;
};

TEST(JsonErrors, NameFileAndLine) {
  static const std::string deep = "[\n" + std::string(300, '[');
  const BadJson cases[] = {
      {"", "f.json:1: Syntax error: value, object or array expected."},
      {"{\n\"a\": 1,\n}", "f.json:3: Missing '}' or object member name"},
      {"[1,\n2\n", "f.json:3: Missing ',' or ']' in array declaration"},
      {"{\"a\" 1}", "f.json:1: Missing ':' after object member name"},
      {"\n\n\"abc", "f.json:3: Syntax error: value, object or array expected."},
      {"\"\\ud800\"", "f.json:1: additional six characters expected to parse unicode surrogate pair."},
      {"{\"a\": 1,\n \"a\": 2}", "f.json:2: Duplicate key: 'a'"},
      {"[1] // note", "f.json:1: Extra non-whitespace after JSON value."},
      {"{} {}", "f.json:1: Extra non-whitespace after JSON value."},
      {deep.c_str(), "f.json:2: nested deeper than 256"},
  };
  for (const BadJson& c : cases) {
    try {
      JsonDoc doc(c.text, "f.json");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const LoadError& e) {
      EXPECT_STREQ(e.what(), c.error) << c.text;
    }
  }
}

}  // namespace
}  // namespace rk8s
