// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/inject_stream.h"

#include <algorithm>
#include <set>
#include <string>

#include "tools/inject/inject_pod.h"
#include "tools/inject/yaml_stream.h"

namespace rk8s::tools {
namespace {

// A key that is a map or a list, which no Kubernetes object has, and which
// a template's `{{ .Values.x }}` reads as; undefined when there is none.
YAML::Node complex_key(const YAML::Node& node) {
  if (node.IsSequence())
    for (const YAML::Node& item : node)
      if (YAML::Node key = complex_key(item)) return key;
  if (node.IsMap())
    for (const auto& member : node) {
      if (!member.first.IsScalar()) return member.first;
      if (YAML::Node key = complex_key(member.second)) return key;
    }
  return YAML::Node(YAML::NodeType::Undefined);
}

// A key given twice in one map, which kubectl refuses ("already defined")
// and yaml-cpp would read as the first; undefined when there is none.
YAML::Node duplicate_key(const YAML::Node& node) {
  if (node.IsSequence())
    for (const YAML::Node& item : node)
      if (YAML::Node key = duplicate_key(item)) return key;
  if (node.IsMap()) {
    std::set<std::string> seen;
    for (const auto& member : node) {
      if (member.first.IsScalar() && !seen.insert(member.first.Scalar()).second) return member.first;
      if (YAML::Node key = duplicate_key(member.second)) return key;
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

}  // namespace

std::string inject_stream(const std::string& stream, const InjectOptions& options,
                          std::vector<StreamError>* notes) {
  std::string out;
  int number = 0;
  for (const YamlDocument& doc : split_documents(stream)) {
    number++;
    // A node made here has no mark (line -1): the document's first line then.
    auto error = [&](const YAML::Mark& mark, const std::string& what) {
      return StreamError{number, doc.first_line + std::max(mark.line, 0), what};
    };
    // The API server takes UTF-8 only, and so does the JSON the first
    // injection keeps the pod spec in.
    if (size_t bad = invalid_utf8(doc.text); bad != std::string_view::npos)
      throw StreamError{number, doc.first_line + int(std::count(doc.text.begin(), doc.text.begin() + long(bad), '\n')),
                        "not UTF-8 text, which the Kubernetes API takes only"};
    try {
      YAML::Node object = YAML::Load(doc.text);
      if (YAML::Node key = complex_key(object))
        throw error(key.Mark(), "a map key that is not a scalar: an unrendered template ({{ ... }})? "
                                "Render it first (helm template), then inject");
      if (YAML::Node key = duplicate_key(object))
        throw error(key.Mark(), "'" + key.Scalar() + "' given twice in one map, which kubectl refuses");
      std::string before = emit_yaml(object);
      std::vector<InjectError> left;
      inject_object(object, options, left);
      for (const InjectError& n : left)
        if (notes) notes->push_back(error(n.mark, n.what));
      out += emit_yaml(object) == before ? doc.text : rewrite_document(doc, object);
    } catch (const YAML::Exception& e) {
      throw error(e.mark, e.msg);
    } catch (const InjectError& e) {
      throw error(e.mark, e.what);
    }
  }
  return out;
}

}  // namespace rk8s::tools
