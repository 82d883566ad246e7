#include "server/data/json.h"

#include <gtest/gtest.h>

#include "server/data/load_error.h"

namespace rk8s::server {
namespace {

TEST(JsonValues, ParsesEveryKindAndKeepsLines) {
  Json v = parse_json("{\"a\": [1, -2.5e1, true, false, null],\n \"b\": \"x\\u00e9\\ud83d\\ude00\\n\",\n"
                      "\"c\": {}}", "t.json");
  ASSERT_EQ(v.kind, Json::kObject);
  const Json* a = v.get("a");
  ASSERT_TRUE(a && a->kind == Json::kArray && a->items.size() == 5);
  EXPECT_EQ(a->items[1].number, -25);
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_EQ(a->items[4].kind, Json::kNull);
  EXPECT_EQ(v.get("b")->string, "x\xc3\xa9\xf0\x9f\x98\x80\n");
  EXPECT_EQ(v.get("b")->line, 2);
  EXPECT_EQ(v.get("c")->line, 3);
  EXPECT_EQ(v.get("missing"), nullptr);
}

struct BadJson {
  const char* text;
  const char* error;
};

TEST(JsonErrors, NameFileAndLine) {
  static const std::string deep(300, '[');
  const BadJson cases[] = {
      {"", "f.json:1: unexpected end of file"},
      {"{\n\"a\": 1,\n}", "f.json:3: expected a member name in quotes"},
      {"[1,\n2\n", "f.json:3: expected ']' or ',' in an array"},
      {"{\"a\" 1}", "f.json:1: expected ':' after a member name"},
      {"\n\n\"abc", "f.json:3: unterminated string"},
      {"\"a\nb\"", "f.json:1: control character in a string"},
      {"\"\\x\"", "f.json:1: bad escape '\\x'"},
      {"\"\\ud800\"", "f.json:1: unpaired high surrogate"},
      {"01", "f.json:1: unexpected text after the JSON value"},
      {"-", "f.json:1: malformed number"},
      {"1.", "f.json:1: malformed number"},
      {"tru", "f.json:1: unexpected character 't'"},
      {"{} {}", "f.json:1: unexpected text after the JSON value"},
      {deep.c_str(), "f.json:1: nested too deeply"},
  };
  for (const BadJson& c : cases) {
    try {
      parse_json(c.text, "f.json");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const LoadError& e) {
      EXPECT_STREQ(e.what(), c.error) << c.text;
    }
  }
}

}  // namespace
}  // namespace rk8s::server
