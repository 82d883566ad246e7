// The command line (server/README.md lists every flag).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <optional>
#include <string>
#include <vector>

#include "server/answer/handler.h"

namespace rk8s::server {

struct Endpoint {
  sockaddr_storage addr = {};
  socklen_t len = 0;
  std::string text;  // as given: 127.0.0.1:53, [::1]:53
};

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

// "ADDR:PORT" or "[V6ADDR]:PORT".
bool parse_endpoint(const std::string& text, Endpoint& out);
// Throws std::runtime_error with a one-line message on a bad flag.
ServerFlags parse_flags(int argc, char** argv);

}  // namespace rk8s::server
