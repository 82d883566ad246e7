// SPDX-License-Identifier: Apache-2.0
// What every subcommand of `resolv-k8s` shares: its arguments, the help,
// and the way out on bad usage.
#pragma once

#include <string>
#include <vector>

namespace rk8s::tools {

// A subcommand's arguments, after its own name. Each subcommand's entry
// point (X_command, in X_cmd.h) takes them and returns the exit status.
using Args = std::vector<std::string>;

// Every command and its flags, on stdout.
void print_help();

// Bad usage: one line on stderr, exit status 2.
[[noreturn]] void usage_error(const std::string& what);

}  // namespace rk8s::tools
