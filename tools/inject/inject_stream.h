// SPDX-License-Identifier: Apache-2.0
// A YAML stream through inject_object, document by document.
#pragma once

#include <string>
#include <vector>

#include "tools/inject/inject_options.h"

namespace rk8s::tools {

// A document of a stream that could not be read or changed: its number and
// the line in the stream (both from 1), and why.
struct StreamError {
  int document;
  int line;
  std::string what;
};

// `stream` with inject_object applied to each of its documents: those it
// changes written again, the others byte for byte; the pods it left as they
// were, and why, in `notes`. Throws StreamError.
std::string inject_stream(const std::string& stream, const InjectOptions& options,
                          std::vector<StreamError>* notes = nullptr);

}  // namespace rk8s::tools
