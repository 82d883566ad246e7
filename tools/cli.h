// SPDX-License-Identifier: Apache-2.0
// The subcommands of `resolv-k8s` and what they share. Each command takes
// its arguments (after its own name) and returns the exit status.
#pragma once

#include <string>
#include <vector>

#include "resolv-k8s.h"

namespace cli {

using Args = std::vector<std::string>;

int conf_command(const Args& args);
int plan_command(const Args& args);
int lookup_command(const Args& args);
int stats_command(const Args& args);
int inject_command(const Args& args);
int webhook_command(const Args& args);

// Bad usage: one line on stderr, exit status 2.
[[noreturn]] void usage_error(const std::string& what);

// resolv.conf at `path` as `dialect` (RK8S_DIALECT_*) reads it, with the
// environment and host name glibc also reads; it lives as long as the
// process. Null (after a message) when it cannot be read.
const rk8s_conf* load_conf(const std::string& path, int dialect);

// All the text an rk8s_* text function has, `write(out, cap)` being that
// function: asked again with room enough when the first try was short.
template <class Write>
std::string api_text(Write write) {
  std::string s(256, '\0');
  size_t n = write(s.data(), s.size());
  if (n >= s.size()) {
    s.resize(n + 1);
    write(s.data(), s.size());
  }
  s.resize(n);
  return s;
}

// "inet", "inet6", "unspec" -> AF_*; bad usage otherwise.
int parse_family(const std::string& word);
const char* family_name(int family);

// "EAI_NONAME" for an EAI_* code.
const char* eai_name(int code);

}  // namespace cli
