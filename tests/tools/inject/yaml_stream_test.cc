// SPDX-License-Identifier: Apache-2.0
// A YAML stream as inject reads and writes it: split at `---` lines into
// documents whose texts make the stream again, UTF-8 checked, scalars
// written back with the quoting that keeps them strings.
#include "tools/inject/yaml_stream.h"

#include <gtest/gtest.h>

namespace rk8s::tools {
namespace {

// Each document as "LINE|TEXT".
std::vector<std::string> documents(const std::string& stream) {
  std::vector<std::string> out;
  for (const YamlDocument& d : split_documents(stream)) out.push_back(std::to_string(d.first_line) + "|" + d.text);
  return out;
}

struct SplitCase {
  std::string stream;
  std::vector<std::string> documents;
};

TEST(SplitDocuments, AtSeparatorLinesTheCommentsBeforeContentKeptWithIt) {
  const SplitCase cases[] = {
      {"", {"1|"}},
      {"a: 1\n", {"1|a: 1\n"}},
      {"a: 1\n---\nb: 2\n", {"1|a: 1\n", "2|---\nb: 2\n"}},
      // A separator before any content starts the first document.
      {"# top\n\n---\na: 1\n", {"1|# top\n\n---\na: 1\n"}},
      {"%YAML 1.2\n---\na: 1\n", {"1|%YAML 1.2\n---\na: 1\n"}},
      {"---\n---\n", {"1|---\n", "2|---\n"}},
      {"a: 1\n--- # b\nb: 2\n---\tc\n", {"1|a: 1\n", "2|--- # b\nb: 2\n", "4|---\tc\n"}},
      {"a: 1\r\n---\r\nb: 2", {"1|a: 1\r\n", "2|---\r\nb: 2"}},
      // Not separators: four dashes, one indented, one in a block.
      {"a: 1\n----\n ---\nb: |\n  ---x\n", {"1|a: 1\n----\n ---\nb: |\n  ---x\n"}},
  };
  for (const SplitCase& c : cases) EXPECT_EQ(c.documents, documents(c.stream)) << c.stream;
}

struct Utf8Case {
  std::string text;
  size_t bad;
};

TEST(InvalidUtf8, TheFirstByteThatIsNotUtf8) {
  const size_t none = std::string_view::npos;
  const Utf8Case cases[] = {
      {"", none},
      {"plain ascii", none},
      {"caf\xc3\xa9", none},
      {"\xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf", none},  // U+20AC, U+1F600, U+10FFFF
      {"a\xff", 1},
      {"a\x80", 1},             // a continuation byte first
      {"\xc0\xaf", 0},          // overlong '/'
      {"\xe0\x80\xaf", 0},      // overlong, three bytes
      {"\xed\xa0\x80", 0},      // a surrogate
      {"\xf4\x90\x80\x80", 0},  // past U+10FFFF
      {"ab\xe2\x82", 2},        // cut short
      {"\xc3\xa9\xc3", 2},
      {"x\xc3(", 1},
  };
  for (const Utf8Case& c : cases) EXPECT_EQ(c.bad, invalid_utf8(c.text)) << testing::PrintToString(c.text);
}

struct EmitCase {
  std::string yaml;
  std::string emitted;
};

TEST(EmitYaml, ScalarsKeepTheQuotingTheyWereReadWith) {
  const EmitCase cases[] = {
      {"a: \"5\"\nb: 5\nc: 'on'\nd: on\ne: x\n", "a: \"5\"\nb: 5\nc: \"on\"\nd: on\ne: x"},
      {"a: \"\"\nb:\nc: ~\nd: null\n", "a: \"\"\nb: null\nc: null\nd: null"},
      {"a: {}\nb: []\n", "a: {}\nb: []"},
      {"s: |\n  two\n  lines\n", "s: |\n  two\n  lines"},
      // A block without its final newline cannot be written as one.
      {"s: |-\n  two\n  lines\n", "s: \"two\\nlines\""},
      {"s: |2\n   indented\n  x\n", "s: \" indented\\nx\\n\""},
      // A tag kept, verbatim: the value still reads as what it was.
      {"!!str k: !!int 5\n", "\"k\": !<tag:yaml.org,2002:int> \"5\""},
      {"l: [a, 'b', \"1\"]\n", "l:\n  - a\n  - \"b\"\n  - \"1\""},
  };
  for (const EmitCase& c : cases) EXPECT_EQ(c.emitted, emit_yaml(YAML::Load(c.yaml))) << c.yaml;
}

TEST(EmitYaml, AKeyPastYamlsCapOnceEscapedIsWrittenExplicit) {
  // 1020 characters, each tab escaped to two: past 1024 only once quoted.
  YAML::Node node;
  node[text_node(std::string(1020, '\t'))] = "v";
  std::string text = emit_yaml(node);
  EXPECT_EQ("? ", text.substr(0, 2));
  EXPECT_EQ(std::string(1020, '\t'), YAML::Load(text).begin()->first.Scalar());
}

struct TextCase {
  std::string text;
  std::string emitted;
};

TEST(TextNode, QuotedWhereKubernetesWouldReadSomethingElse) {
  const TextCase cases[] = {
      {"web", "web"},     {"/opt/resolv-k8s", "/opt/resolv-k8s"},
      {"on", "\"on\""},   {"Off", "\"Off\""},
      {"y", "\"y\""},     {"5", "\"5\""},
      {"10m", "\"10m\""}, {"16Mi", "\"16Mi\""},  // anything that starts like a number
      {"Mi16", "Mi16"},   {".5", "\".5\""},
      {"-x", "\"-x\""},   {"null", "\"null\""},
      {"~", "\"~\""},     {"", "\"\""},
  };
  for (const TextCase& c : cases) {
    EXPECT_EQ(c.emitted, emit_yaml(text_node(c.text))) << c.text;
    EXPECT_EQ(c.text, YAML::Load(emit_yaml(text_node(c.text))).Scalar());
  }
}

struct RewriteCase {
  std::string document;
  std::string rewritten;
};

TEST(RewriteDocument, TheSeparatorAndTheCommentsAboveTheContentKept) {
  const RewriteCase cases[] = {
      {"kind: A\n", "kind: B\n"},
      {"# top\n---\n# about it\nkind: A  # gone\n# below\n", "# top\n---\n# about it\nkind: B\n"},
      {"--- # said\nkind: A\n", "--- # said\nkind: B\n"},
      {"--- {kind: A}\n", "---\nkind: B\n"},
      {"# no newline", "# no newline\nkind: B\n"},
  };
  for (const RewriteCase& c : cases) {
    YamlDocument doc{c.document, 1};
    EXPECT_EQ(c.rewritten, rewrite_document(doc, YAML::Load("kind: B"))) << c.document;
  }
}

}  // namespace
}  // namespace rk8s::tools
