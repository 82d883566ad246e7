// SPDX-License-Identifier: Apache-2.0
// The words plan and lookup read and print for an address family and a
// getaddrinfo error.
#pragma once

#include <string>

namespace rk8s::tools {

// "inet", "inet6", "unspec" -> AF_*; bad usage otherwise.
int parse_family(const std::string& word);
const char* family_name(int family);

// "EAI_NONAME" for an EAI_* code.
const char* eai_name(int code);

}  // namespace rk8s::tools
