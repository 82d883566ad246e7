// SPDX-License-Identifier: Apache-2.0
// The command line (server/README.md lists every flag).
#pragma once

#include "server/config/config.h"

namespace rk8s::server {


extern const char kUsage[];

// With --config, its file's ServerConfig (a LoadError for a bad file);
// without, the flags' closed world: one ZoneServer for every name.
// --tcp-nodelay applies to either; the test faults' flags
// (server/faults/flags.h) are taken out before. --help prints kUsage, --version the
// version, and both exit 0.
ServerConfig parse_command_line(int argc, char** argv);

}  // namespace rk8s::server
