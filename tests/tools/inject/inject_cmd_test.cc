// SPDX-License-Identifier: Apache-2.0
// resolv-k8s inject's command line: its own flags and FILE, what it cannot
// read, the stream written whole or not at all, the notes on stderr.
#include "tools/inject/inject_cmd.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

using test::kImage;

const std::string kPod = "apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec: {containers: [{name: a}]}\n";

using test::UsageCase;

TEST(InjectCommand, BadUsageIsNamed) {
  const std::string file = test::temp_file("usage.yaml", kPod);
  test::expect_usage_errors(inject_command,
                            {
                                {{}, "inject: one FILE (or - for stdin) is needed"},
                                {{"--image", kImage}, "inject: one FILE (or - for stdin) is needed"},
                                {{"--image", kImage, file, file}, "inject: one FILE (or - for stdin) is needed"},
                                {{"--image", kImage, "-", file}, "inject: one FILE (or - for stdin) is needed"},
                                {{"--image", kImage, "--dry-run", file}, "inject: unknown flag '--dry-run'"},
                                {{"--image", kImage, file, "--namespace"}, "inject: --namespace needs a value"},
                                {{"--image", kImage, "--namespace", "", file}, "inject: --namespace needs a value"},
                                {{"--libc", "bionic", file}, "inject: --libc is auto, glibc or musl"},
                                {{file}, std::string("inject: ") + test::kImageNeeded},
                            });
}

TEST(InjectCommand, WhatCannotBeReadIsNamedAndNothingWritten) {
  const std::string bad = test::temp_file("bad.yaml", "kind: ConfigMap\n---\nb: 1\nb: 2\n");
  const UsageCase cases[] = {
      {{"--image", kImage, test::temp_dir() + "no-such.yaml"},
       "resolv-k8s: inject: " + test::temp_dir() + "no-such.yaml: No such file or directory\n"},
      {{"--image", kImage, test::temp_dir()}, "resolv-k8s: inject: " + test::temp_dir() + ": Is a directory\n"},
      {{"--image", kImage, bad},
       "resolv-k8s: inject: " + bad + ":4: document 2: 'b' given twice in one map, which kubectl refuses\n"},
  };
  for (const UsageCase& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    test::Output run = test::run_captured([&] { return inject_command(c.args); });
    EXPECT_EQ(1, run.status);
    EXPECT_EQ("", run.out);
    EXPECT_EQ(c.error, run.err);
  }
}

TEST(InjectCommand, TheStreamOnStdoutAndWhatWasLeftOnStderr) {
  const std::string host =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: h}\nspec:\n  hostNetwork: true\n"
      "  containers: [{name: a}]\n";
  const std::string file = test::temp_file("stream.yaml", kPod + "---\n" + host);
  test::Output run = test::run_captured([&] {
    return inject_command({"--namespace", "shop", "--image", kImage, "--nameserver", "169.254.20.10", file});
  });
  EXPECT_EQ(0, run.status);
  EXPECT_EQ("resolv-k8s: inject: " + file +
                ":10: document 2: spec: on the node's network with the node's DNS (hostNetwork), left as it is\n",
            run.err);
  // The pod injected, in --namespace's DNS; the one on the node's network as it was.
  EXPECT_NE(std::string::npos, run.out.find("    searches:\n      - shop.svc.cluster.local\n"));
  EXPECT_EQ(run.out.size() - host.size(), run.out.rfind("---\n" + host) + 4);
}

}  // namespace
}  // namespace rk8s::tools
