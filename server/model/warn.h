// SPDX-License-Identifier: Apache-2.0
// How a layer tells the server's log something while it works: one line,
// without the program's name in front.
#pragma once

#include <functional>
#include <string>

namespace rk8s::server {

using Warn = std::function<void(const std::string&)>;

}  // namespace rk8s::server
