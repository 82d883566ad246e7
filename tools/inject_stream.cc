// SPDX-License-Identifier: Apache-2.0
// A YAML stream through inject_object, document by document.
#include <algorithm>

#include "inject.h"
#include "yaml_stream.h"

namespace cli {

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
    try {
      YAML::Node object = YAML::Load(doc.text);
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

}  // namespace cli
