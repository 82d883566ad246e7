// SPDX-License-Identifier: Apache-2.0
// The JSON Patch between two documents: the operations themselves, small
// where items stay in place, and applied to the first they give the second.
#include "tools/webhook/json_patch.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

struct PatchCase {
  std::string from, to;
  std::string ops;
};

TEST(JsonPatch, TheOperationsAndWhatTheyGive) {
  const PatchCase cases[] = {
      {"{\"a\":1}", "{\"a\":1}", "[]"},
      {"{\"a\":1}", "{\"a\":1,\"b\":{\"c\":2}}", "[{\"op\":\"add\",\"path\":\"/b\",\"value\":{\"c\":2}}]"},
      {"{\"a\":1,\"b\":2}", "{\"b\":2}", "[{\"op\":\"remove\",\"path\":\"/a\"}]"},
      {"{\"a\":1}", "{\"a\":\"1\"}", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":\"1\"}]"},
      {"{\"a\":{\"b\":{\"c\":1}}}", "{\"a\":{\"b\":{\"c\":2}}}",
       "[{\"op\":\"replace\",\"path\":\"/a/b/c\",\"value\":2}]"},
      // Items put in front (our init container): added at 0, 1...
      {"{\"l\":[\"x\",\"y\"]}", "{\"l\":[\"p\",\"q\",\"x\",\"y\"]}",
       "[{\"op\":\"add\",\"path\":\"/l/0\",\"value\":\"p\"},{\"op\":\"add\",\"path\":\"/l/1\",\"value\":\"q\"}]"},
      // Items in place, some changed, some added at the end (a mount, an env variable).
      {"{\"l\":[{\"n\":\"a\"},{\"n\":\"b\"}]}", "{\"l\":[{\"n\":\"a\",\"m\":1},{\"n\":\"b\"},{\"n\":\"c\"}]}",
       "[{\"op\":\"add\",\"path\":\"/l/0/m\",\"value\":1},{\"op\":\"add\",\"path\":\"/l/-\",\"value\":{\"n\":\"c\"}}]"},
      {"{\"l\":[]}", "{\"l\":[1]}", "[{\"op\":\"add\",\"path\":\"/l/0\",\"value\":1}]"},
      // Shorter, or reordered past the front: replaced whole.
      {"{\"l\":[1,2,3]}", "{\"l\":[1,3]}", "[{\"op\":\"replace\",\"path\":\"/l\",\"value\":[1,3]}]"},
      {"{\"l\":[1,2]}", "{\"l\":[2,1,3]}",
       "[{\"op\":\"replace\",\"path\":\"/l/0\",\"value\":2},{\"op\":\"replace\",\"path\":\"/l/1\",\"value\":1},"
       "{\"op\":\"add\",\"path\":\"/l/-\",\"value\":3}]"},
      {"{\"a\":{\"b\":1}}", "{\"a\":[1]}", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":[1]}]"},
      // RFC 6901: "~" and "/" in a name, as in an annotation's key.
      {"{\"m\":{}}", "{\"m\":{\"resolv-k8s.io/injected\":\"x\",\"a~b\":1}}",
       "[{\"op\":\"add\",\"path\":\"/m/a~0b\",\"value\":1},{\"op\":\"add\",\"path\":\"/m/resolv-k8s.io~1injected\","
       "\"value\":\"x\"}]"},
      {"1", "2", "[{\"op\":\"replace\",\"path\":\"\",\"value\":2}]"},
  };
  for (const PatchCase& c : cases) {
    SCOPED_TRACE(c.from + " -> " + c.to);
    Json::Value from = test::parse_json(c.from), to = test::parse_json(c.to);
    Json::Value ops = json_patch(from, to);
    EXPECT_EQ(c.ops, json_text(ops));
    EXPECT_EQ(to, test::apply_patch(from, ops));
  }
}

}  // namespace
}  // namespace rk8s::tools
