// SPDX-License-Identifier: Apache-2.0
// What every subcommand shares: the usage error's one line and exit 2, and
// a help that names every command and every flag the commands read.
#include "tools/usage/usage.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

TEST(UsageError, OneLineOnStderrAndExitTwo) {
  // Anchored: that line and nothing more.
  EXPECT_EXIT(usage_error("inject: --libc is auto, glibc or musl"), testing::ExitedWithCode(2),
              "^" + test::literal("resolv-k8s: inject: --libc is auto, glibc or musl (resolv-k8s --help)\n") + "$");
}

TEST(PrintHelp, EveryCommandAndEveryFlagItReads) {
  test::Output run = test::run_captured([] {
    print_help();
    return 0;
  });
  const std::string& help = run.out;
  EXPECT_EQ(0u, help.find("usage: resolv-k8s COMMAND [ARGS]\n"));
  // Each command's line, in the order the help gives them.
  size_t at = 0;
  for (const char* line : {"\n  conf [--musl] [FILE]", "\n  plan [--musl] [--conf FILE] [-f FAMILY] NAME",
                           "\n  lookup [--conf FILE] [-f FAMILY] NAME...", "\n  stats FILE", "\n  inject --image IMAGE",
                           "\n  inject --remove FILE|-", "\n         --autopath marker --nameserver NODE_LOCAL",
                           "\n  webhook --cert FILE --key FILE", "\n  webhook --tls-secret NAME",
                           "\n  webhook check [--namespace NS]", "\n  --version"}) {
    size_t found = help.find(line, at);
    EXPECT_NE(std::string::npos, found) << line;
    at = found == std::string::npos ? at : found;
  }
  // The flags it names are those the commands read (inject_options_test.cc
  // and the commands' tests read each), and no other.
  std::set<std::string> named;
  const std::regex flag("--[a-z][a-z-]*");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), flag); it != std::sregex_iterator(); ++it)
    named.insert(it->str());
  const std::set<std::string> read = {
      // inject's and the webhook's (inject_options.cc), inject's own, the webhook's own
      "--image", "--libc", "--nameserver", "--cluster-domain", "--autopath", "--marker", "--host-search", "--init-cpu",
      "--init-memory", "--remove", "--namespace", "--cert", "--key", "--listen", "--log-level", "--max-connections",
      "--tls-secret", "--tls-secret-interval", "--service", "--webhook-configuration",
      // conf's, plan's and lookup's, and main's (its --help is named by every usage error)
      "--musl", "--conf", "--version"};
  EXPECT_EQ(read, named);
}

}  // namespace
}  // namespace rk8s::tools
