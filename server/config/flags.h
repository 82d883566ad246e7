// The command line (server/README.md lists every flag).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/config/config.h"

namespace rk8s::server {

struct ServerFlags {
  std::vector<Endpoint> listen;
  std::string cluster;
  std::string cluster_domain = "cluster.local";
  std::vector<std::string> zones;
  AutopathMode autopath = AutopathMode::on;
  uint16_t autopath_code = autopath::kDefaultCode;
  unsigned delay_ms = 0;
  std::string query_log;
  std::optional<Endpoint> metrics;
  Faults faults;
  bool help = false;
};

extern const char kUsage[];

// Throws std::runtime_error with a one-line message on a bad flag; refuses
// --config.
ServerFlags parse_flags(int argc, char** argv);
// With --config, its file's ServerConfig (a LoadError for a bad file);
// without, the flags' closed world: one ZoneServer for every name. The
// test knobs apply to either. --help prints kUsage and exits 0.
ServerConfig parse_command_line(int argc, char** argv);

}  // namespace rk8s::server
