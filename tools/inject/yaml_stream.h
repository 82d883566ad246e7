// SPDX-License-Identifier: Apache-2.0
// A stream of YAML documents as `resolv-k8s inject` reads and writes it:
// split at `---` lines by hand (yaml-cpp 0.7's LoadAll never returns on some
// malformed input), each document's bytes kept for the ones left unchanged,
// and nodes written back with the quoting they were read with.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace rk8s::tools {

struct YamlDocument {
  std::string text;  // as read: its `---` line, the comments before it, up to the next
  int first_line;    // of text in the stream, from 1
};

// Every document of `stream`; their texts put together are `stream`.
std::vector<YamlDocument> split_documents(const std::string& stream);

// The offset of the first byte of `text` that is not UTF-8, or npos.
size_t invalid_utf8(std::string_view text);

// `node` as YAML text: a scalar that was quoted (or a block) when read is
// written quoted (or as a block), so "5" and "on" stay strings.
std::string emit_yaml(const YAML::Node& node);

// `doc` with `node` in place of its content: the separator and the comments
// above the content are kept, the rest is `node` (comments in it are lost).
std::string rewrite_document(const YamlDocument& doc, const YAML::Node& node);

// A scalar that Kubernetes reads back as this string, quoted only when it
// would otherwise read as a bool, a number or null ("on", "5").
YAML::Node text_node(const std::string& text);

}  // namespace rk8s::tools
