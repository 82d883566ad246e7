// SPDX-License-Identifier: Apache-2.0
// Why start-up stopped: "file:line: what is wrong".
#pragma once

#include <stdexcept>
#include <string>

namespace rk8s {

struct LoadError : std::runtime_error {
  LoadError(const std::string& file, int line, const std::string& what)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + what) {}
};

}  // namespace rk8s
