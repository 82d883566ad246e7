// SPDX-License-Identifier: Apache-2.0
// resolv-k8s COMMAND [ARGS]: what the library makes of resolv.conf, of a
// name, of a lookup, and of the counters the preload wrote; and manifests
// given the library. Here the command's name picks its entry point
// (X_command in X_cmd.h), and nothing more.
#include <stdio.h>

#include <algorithm>
#include <string>

#include "resolv-k8s.h"
#include "tools/diagnose/conf_cmd.h"
#include "tools/diagnose/lookup_cmd.h"
#include "tools/diagnose/plan_cmd.h"
#include "tools/diagnose/stats_cmd.h"
#include "tools/inject/inject_cmd.h"
#include "tools/usage/usage.h"
#include "tools/webhook/webhook_cmd.h"

using namespace rk8s::tools;

int main(int argc, char** argv) {
  Args args(argv + 1, argv + argc);
  if (args.empty()) usage_error("a command is needed");
  std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_help();
    return 0;
  }
  if (cmd == "--version") {
    puts("resolv-k8s " RK8S_VERSION);
    return 0;
  }
  // `resolv-k8s COMMAND --help`: the help, which covers every command.
  if (std::find(args.begin(), args.end(), "--help") != args.end()) {
    print_help();
    return 0;
  }
  // The trace goes to stderr: our lines must come out in order with it.
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (cmd == "conf") return conf_command(args);
  if (cmd == "plan") return plan_command(args);
  if (cmd == "lookup") return lookup_command(args);
  if (cmd == "stats") return stats_command(args);
  if (cmd == "inject") return inject_command(args);
  if (cmd == "webhook") return webhook_command(args);
  usage_error("unknown command '" + cmd + "'");
}
