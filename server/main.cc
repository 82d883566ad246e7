// SPDX-License-Identifier: Apache-2.0
// resolv-k8s-server: the companion DNS server and node-local cache
// (server/README.md).
#include <csignal>
#include <memory>

#include "server/config/flags.h"
#include "server/node/supervisor.h"
#include "server/process/server.h"

using namespace rk8s::server;

namespace {

int serve(const ServerConfig& config, int argc, char** argv) {
  auto server = std::make_unique<Server>(config, [=] { return parse_command_line(argc, argv); });
  return server->run();
}

// With nodeSetup, under the supervisor (node/supervisor.h).
int run(int argc, char** argv) {
  ServerConfig config = parse_command_line(argc, argv);
  if (!config.node_setup) return serve(config, argc, argv);
  return supervise(*config.node_setup, config.listen, [&] {
    try {
      return serve(config, argc, argv);
    } catch (const std::exception& e) {
      say(e.what());
      return 1;
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  say_libevent_warnings();
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    say(e.what());
    return 1;
  }
}
