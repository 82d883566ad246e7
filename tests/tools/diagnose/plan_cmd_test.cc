// SPDX-License-Identifier: Apache-2.0
// resolv-k8s plan: a name's candidates in the libc's order and the one
// autopath query standing for them, or why there is none; its arguments.
#include "tools/diagnose/plan_cmd.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

const char kKubelet[] =
    "nameserver 10.96.0.10\nsearch shop.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n";
const char kWalk[] =
    "  1  web.shop.svc.cluster.local.\n  2  web.svc.cluster.local.\n  3  web.cluster.local.\n  4  web.\n";
const char kPaired[] = "PAIRED (then BOTH, one query for A and AAAA, once the server has shown support)";

struct PlanCase {
  std::string resolv_conf;
  Args args;
  std::string printed;
};

TEST(PlanCommand, TheCandidatesAndTheQueryStandingForThem) {
  unsetenv("LOCALDOMAIN");
  unsetenv("RES_OPTIONS");
  const std::string suffixes = "  suffixes  shop.svc.cluster.local. svc.cluster.local. cluster.local. .\n";
  const PlanCase cases[] = {
      {kKubelet,
       {"web"},
       "web: glibc, ndots 5, family unspec\nclassic walk, in order (2 queries each):\n" + std::string(kWalk) +
           "autopath query (2 instead of up to 8):\n  QNAME     web.shop.svc.cluster.local.\n" + suffixes +
           "  flags     Q STOP_ON_EXISTS PAST_NODATA " + kPaired + "\n  code      65431\n"},
      // One family: one query each, nothing to pair.
      {kKubelet,
       {"-f", "inet6", "web"},
       "web: glibc, ndots 5, family inet6\nclassic walk, in order (1 query each):\n" + std::string(kWalk) +
           "autopath query (1 instead of up to 4):\n  QNAME     web.shop.svc.cluster.local.\n" + suffixes +
           "  flags     Q STOP_ON_EXISTS PAST_NODATA\n  code      65431\n"},
      {kKubelet,
       {"--musl", "web"},
       "web: musl, ndots 5, family unspec\nclassic walk, in order (2 queries each):\n" + std::string(kWalk) +
           "autopath query (2 instead of up to 8):\n  QNAME     web.shop.svc.cluster.local.\n" + suffixes +
           "  flags     Q STOP_ON_EXISTS " + kPaired + "\n  code      65431\n"},
      // As many dots as ndots: the name as it is first.
      {kKubelet,
       {"-f", "inet", "a.b.c.d.e.f"},
       "a.b.c.d.e.f: glibc, ndots 5, family inet\n"
       "classic walk, in order (1 query each):\n"
       "  1  a.b.c.d.e.f.\n"
       "  2  a.b.c.d.e.f.shop.svc.cluster.local.\n"
       "  3  a.b.c.d.e.f.svc.cluster.local.\n"
       "  4  a.b.c.d.e.f.cluster.local.\n"
       "autopath query (1 instead of up to 4):\n"
       "  QNAME     a.b.c.d.e.f.\n"
       "  suffixes  . shop.svc.cluster.local. svc.cluster.local. cluster.local.\n"
       "  flags     Q STOP_ON_EXISTS PAST_NODATA\n"
       "  code      65431\n"},
      // musl asks such a name alone.
      {kKubelet,
       {"--musl", "-f", "inet", "a.b.c.d.e.f"},
       "a.b.c.d.e.f: musl, ndots 5, family inet\nclassic walk, in order (1 query each):\n  1  a.b.c.d.e.f.\n"
       "autopath: none (one candidate: asked as it is)\n"},
      {kKubelet,
       {"web."},
       "web.: glibc, ndots 5, family unspec\nclassic walk, in order (2 queries each):\n  1  web.\n"
       "autopath: none (one candidate: asked as it is, then with BOTH and one suffix (one query for A and AAAA) "
       "once the server has shown support)\n"},
      {std::string(kKubelet) + "options k8s-autopath:off\n",
       {"web"},
       "web: glibc, ndots 5, family unspec\nclassic walk, in order (2 queries each):\n" + std::string(kWalk) +
           "autopath: off (options k8s-autopath:off)\n"},
      {kKubelet, {"a..b"}, "a..b: never asked of DNS: getaddrinfo fails with EAI_NONAME\n"},
      // A search line past the library's 4096 bytes.
      {"nameserver 10.0.0.1\nsearch " + std::string(4200, 'a') + "\n",
       {"web"},
       "web: resolv.conf beyond the library's limits: libc answers\n"},
  };
  int n = 0;
  for (const PlanCase& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    Args args = {"--conf", test::temp_file("plan." + std::to_string(n++), c.resolv_conf)};
    args.insert(args.end(), c.args.begin(), c.args.end());
    test::Output run = test::run_captured([&] { return plan_command(args); });
    EXPECT_EQ(0, run.status);
    EXPECT_EQ(c.printed, run.out);
  }
}

TEST(PlanCommand, ItsArguments) {
  const std::string conf = test::temp_file("plan.args", kKubelet);
  test::expect_usage_errors(
      plan_command, {
                        {{"--conf", conf}, "plan: a NAME is needed"},
                        {{"--conf", conf, "web", "api"}, "plan: unexpected 'api'"},
                        {{"--conf", conf, "web", "-f"}, "plan: -f needs a value"},
                        {{"web", "--conf"}, "plan: --conf needs a value"},
                        {{"--conf", conf, "-f", "inet7", "web"}, "unknown family 'inet7': inet, inet6 or unspec"},
                        {{"--conf", conf, "--glibc", "web"}, "plan: unexpected '--glibc'"},
                    });
  test::Output run = test::run_captured([] { return plan_command({"--conf", "/nonexistent/resolv.conf", "web"}); });
  EXPECT_EQ(1, run.status);
  EXPECT_EQ("resolv-k8s: /nonexistent/resolv.conf: No such file or directory\n", run.err);
}

}  // namespace
}  // namespace rk8s::tools
