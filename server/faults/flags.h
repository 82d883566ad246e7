// SPDX-License-Identifier: Apache-2.0
// The test faults' flags, taken out of the command line before the rest
// is read as the server's (config/flags.h): --rcode NAME[/TYPE]=RCODE and
// --drop NAME[/TYPE] (repeatable), --delay-ms N, --autopath formerr|echo,
// --query-log FILE.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/faults/edns_modes.h"
#include "server/faults/name_faults.h"

namespace rk8s::server {

struct TestFaults {
  NameFaults names;               // --rcode, --drop
  unsigned delay_ms = 0;          // --delay-ms: every reply waits so long
  std::optional<EdnsMode> edns;   // --autopath formerr|echo
  std::string query_log;          // --query-log
};

// Takes the test flags and their values out of `args` (the command line
// without the program's name); every other flag but --help, -h and
// --version is taken to have a value, left with it. Throws
// std::runtime_error, one line, for a bad or missing value.
TestFaults take_test_flags(std::vector<std::string>& args);

}  // namespace rk8s::server
