// SPDX-License-Identifier: Apache-2.0
// The metrics tests' reading of Prometheus text: the lines a table names.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace rk8s::server::test {

// The lines of `text` that start with `prefix`, in order.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, prefix.size(), prefix) == 0) out.push_back(line);
  return out;
}

}  // namespace rk8s::server::test
