// SPDX-License-Identifier: Apache-2.0
// resolv-k8s-server: the companion DNS server and node-local cache
// (server/README.md).
#include <unistd.h>

#include <csignal>
#include <memory>

#include "server/config/flags.h"
#include "server/node/setup.h"
#include "server/node/supervisor.h"
#include "server/process/privileges.h"
#include "server/process/server.h"

using namespace rk8s::server;

namespace {

// Binds (then closes `listening`: the supervisor waits for that), drops
// every capability, serves.
int serve(const ServerConfig& config, int argc, char** argv, int listening = -1) {
  auto server = std::make_unique<Server>(config, [=] { return parse_command_line(argc, argv); });
  if (listening >= 0) close(listening);
  if (std::string why = drop_capabilities(); !why.empty()) say(why);
  return server->run();
}

// With nodeSetup, under the supervisor (node/supervisor.h), which holds the
// node's set-up.
int run(int argc, char** argv) {
  ServerConfig config = parse_command_line(argc, argv);
  if (!config.node_setup) return serve(config, argc, argv);
  NodeSetup node(*config.node_setup, config.listen);
  auto check = [&] {
    try {
      node.check();
      return true;
    } catch (const std::exception& e) {
      say(e.what());
      return false;
    }
  };
  auto serve_child = [&](int listening) {
    try {
      return serve(config, argc, argv, listening);
    } catch (const std::exception& e) {
      say(e.what());
      return 1;
    }
  };
  return supervise(Supervised{serve_child, check, [&] { return node.teardown(); }, config.node_setup->check_seconds,
                              node.kept()});
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
