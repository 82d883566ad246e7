// SPDX-License-Identifier: Apache-2.0
// resolv-k8s-server: the companion DNS server and node-local cache
// (server/README.md).
#include <unistd.h>

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "server/config/flags.h"
#include "server/faults/wrap.h"
#include "server/node/owner.h"
#include "server/node/setup.h"
#include "server/node/supervisor.h"
#include "server/process/privileges.h"
#include "server/process/server.h"

using namespace rk8s::server;

namespace {

// The command line but the test faults' flags (faults/flags.h), as
// parse_command_line reads one.
struct ServerArgs {
  std::vector<std::string> args;
  ServerConfig parse() const {
    std::vector<char*> argv{const_cast<char*>("resolv-k8s-server")};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    return parse_command_line(int(argv.size()), argv.data());
  }
};

// Binds (then closes `listening`: the supervisor waits for that), drops
// every capability, serves; the test faults, if any, around the query path.
int serve(const ServerConfig& config, const ServerArgs& args, const TestFaults& faults, int listening = -1) {
  auto server = std::make_unique<Server>(config, [=] { return args.parse(); }, wrap_query_path(faults));
  if (listening >= 0) close(listening);
  if (std::string why = drop_capabilities(); !why.empty()) say(why);
  return server->run();
}

// With nodeSetup, under the supervisor (node/supervisor.h), which holds the
// node's set-up.
int run(int argc, char** argv) {
  ServerArgs args{std::vector<std::string>(argv + 1, argv + argc)};
  TestFaults faults = take_test_flags(args.args);
  ServerConfig config = args.parse();
  if (!config.node_setup) return serve(config, args, faults);
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
      return serve(config, args, faults, listening);
    } catch (const std::exception& e) {
      say(e.what());
      return 1;
    }
  };
  // With daemonSet, the link-local address is kept only for a cache that
  // comes back: not once the DaemonSet is deleted (an uninstall). Asked at
  // the supervisor's end alone: after a crash the server comes back anyway.
  const std::string& owner = config.node_setup->daemon_set;
  auto wanted = [&] {
    OwnerAnswer a = daemon_set_state(owner);
    if (a.state == OwnerState::gone)
      say("the DaemonSet " + owner + " is gone (" + a.why + "): " + node.kept() + " removed too, nothing left");
    else if (a.state == OwnerState::unknown)
      say("the DaemonSet " + owner + " is not known to be gone (" + a.why + "): " + node.kept() + " kept");
    return a.state != OwnerState::gone;
  };
  auto tear_down = [&](bool last) { return owner.empty() || !last ? node.teardown() : node.teardown(wanted); };
  return supervise(Supervised{serve_child, check, tear_down, config.node_setup->check_seconds, node.kept()});
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
