// SPDX-License-Identifier: Apache-2.0
// resolv-k8s conf: resolv.conf as the library reads it in either dialect,
// every option and warning in words; its arguments.
#include "tools/diagnose/conf_cmd.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

// " d0.example d1.example ...", `count` of them.
std::string domains(int count) {
  std::string out;
  for (int i = 0; i < count; i++) out += " d" + std::to_string(i) + ".example";
  return out;
}

struct ConfCase {
  Args flags;
  std::string resolv_conf;
  std::string printed;
};

TEST(ConfCommand, ResolvConfAsEachLibcReadsIt) {
  unsetenv("LOCALDOMAIN");
  unsetenv("RES_OPTIONS");
  const std::string options =
      "nameserver 10.0.0.1\nsearch a.example\noptions rotate edns0 single-request single-request-reopen "
      "no-tld-query no-reload use-vc trust-ad no-aaaa\n";
  const std::string capped =
      "nameserver 1.1.1.1\nnameserver 1.1.1.2\nnameserver 1.1.1.3\nnameserver 1.1.1.4\n"
      "search a\noptions ndots:20 timeout:99 attempts:0 k8s-autopath:maybe\n";
  const std::string warnings =
      "warning     more than 3 nameservers: the rest are ignored\n"
      "warning     attempts:0 (glibc sends nothing, musl crashes): the library uses 1\n"
      "warning     ndots, timeout or attempts above the libc's cap: capped\n"
      "warning     a k8s-autopath word that could not be read: ignored\n";
  // The lines most cases share.
  const std::string defaults = "ndots       1\ntimeout     5 s\nattempts    2\n";
  const std::string none = "options     (none)\n";
  const std::string on = "autopath    on, option code 65431\n";
  const ConfCase cases[] = {
      {{},
       "nameserver 10.96.0.10\nsearch shop.svc.cluster.local svc.cluster.local\noptions ndots:5 k8s-autopath:off\n",
       "dialect     glibc\n"
       "nameserver  10.96.0.10\n"
       "search      shop.svc.cluster.local svc.cluster.local\n"
       "ndots       5\n"
       "timeout     5 s\n"
       "attempts    2\n" +
           none +
           "autopath    off, option code 65431\n"
           "warnings    none\n"},
      {{},
       options,
       "dialect     glibc\n"
       "nameserver  10.0.0.1\n"
       "search      a.example\n" +
           defaults +
           "options     rotate edns0 single-request single-request-reopen no-tld-query no-reload use-vc trust-ad "
           "no-aaaa\n" +
           on + "warnings    none\n"},
      // musl reads none of glibc's flags.
      {{"--musl"},
       options,
       "dialect     musl\n"
       "nameserver  10.0.0.1\n"
       "search      a.example\n" +
           defaults + none + on + "warnings    none\n"},
      // Each libc's caps: glibc's timeout 30 and attempts as given, musl's 60 and 1.
      {{},
       capped,
       "dialect     glibc\n"
       "nameserver  1.1.1.1\n"
       "nameserver  1.1.1.2\n"
       "nameserver  1.1.1.3\n"
       "search      a\n"
       "ndots       15\n"
       "timeout     30 s\n"
       "attempts    0\n" +
           none + on + warnings},
      {{"--musl"},
       capped,
       "dialect     musl\n"
       "nameserver  1.1.1.1\n"
       "nameserver  1.1.1.2\n"
       "nameserver  1.1.1.3\n"
       "search      a\n"
       "ndots       15\n"
       "timeout     60 s\n"
       "attempts    1\n" +
           none + on + warnings},
      // No nameserver: musl's default.
      {{"--musl"},
       "search a\n" + std::string(300, '#') + "\n",
       "dialect     musl\n"
       "nameserver  127.0.0.1\n"
       "search      a\n" +
           defaults + none + on + "warning     a line over 255 bytes, which musl skips: read anyway\n"},
      // Past the library's 64 search domains: libc answers.
      {{},
       "nameserver 10.0.0.1\nsearch" + domains(70) + "\n",
       "dialect     glibc\n"
       "nameserver  10.0.0.1\n"
       "search     " +
           domains(64) + "\n" + defaults + none + on +
           "warning     beyond the library's limits: every lookup goes to libc\n"},
  };
  int n = 0;
  for (const ConfCase& c : cases) {
    SCOPED_TRACE(c.resolv_conf);
    Args args = c.flags;
    args.push_back(test::temp_file("conf." + std::to_string(n++), c.resolv_conf));
    test::Output run = test::run_captured([&] { return conf_command(args); });
    EXPECT_EQ(0, run.status);
    EXPECT_EQ(c.printed, run.out);
  }
}

TEST(ConfCommand, ItsArguments) {
  const std::string file = test::temp_file("conf.args", "nameserver 10.0.0.1\n");
  test::expect_usage_errors(conf_command, {{{file, file}, "conf: unexpected '" + file + "'"},
                                           {{"--glibc", file}, "conf: unexpected '--glibc'"},
                                           {{"-"}, "conf: unexpected '-'"}});
  test::Output run = test::run_captured([] { return conf_command({test::temp_dir() + "no-such.conf"}); });
  EXPECT_EQ(1, run.status);
  EXPECT_EQ("resolv-k8s: " + test::temp_dir() + "no-such.conf: No such file or directory\n", run.err);
}

}  // namespace
}  // namespace rk8s::tools
