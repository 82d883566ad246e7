// SPDX-License-Identifier: Apache-2.0
// resolv-k8s lookup's arguments, and a --conf it cannot read; the lookups
// themselves need a pod sandbox and a server (tests/tools/tools_test.sh).
#include "tools/diagnose/lookup_cmd.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

TEST(LookupCommand, ItsArguments) {
  test::expect_usage_errors(lookup_command,
                            {
                                {{}, "lookup: a NAME is needed"},
                                {{"-f", "inet"}, "lookup: a NAME is needed"},
                                {{"web", "-f"}, "lookup: -f needs a value"},
                                {{"web", "--conf"}, "lookup: --conf needs a value"},
                                {{"-f", "inet9", "web"}, "unknown family 'inet9': inet, inet6 or unspec"},
                                {{"--musl", "web"}, "lookup: unexpected '--musl'"},
                            });
  test::expect_exit(
      [] {
        return lookup_command({"--conf", "/nonexistent/resolv.conf", "web"});
      },
      1, "resolv-k8s lookup: /nonexistent/resolv.conf: No such file or directory\n");
}

}  // namespace
}  // namespace rk8s::tools
