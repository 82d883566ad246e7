// SPDX-License-Identifier: Apache-2.0
// resolv-k8s webhook's command line: its flags and their bounds, refused by
// name before it serves (and `check`'s); a certificate it cannot load
// stops it (exit 1) before it listens.
#include "tools/webhook/webhook_cmd.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

using test::kImage;

using test::UsageCase;

TEST(WebhookCommand, BadFlagsAreNamed) {
  const Args tls = {"--cert", "/x/tls.crt", "--key", "/x/tls.key", "--image", kImage};
  auto with = [&](Args more) {
    more.insert(more.begin(), tls.begin(), tls.end());
    return more;
  };
  test::expect_usage_errors(
      webhook_command,
      {
          {with({"--port", "8443"}), "webhook: unknown flag '--port'"},
          {with({"--namespace", "shop"}), "webhook: unknown flag '--namespace'"},
          {with({"--listen"}), "webhook: --listen needs a value"},
          {with({"--log-level", ""}), "webhook: --log-level needs a value"},
          {with({"--log-level", "Trace"}), "webhook: --log-level is Normal or Debug"},
          {with({"--max-connections", "0"}), "webhook: --max-connections is a number from 1 to 1000"},
          {with({"--max-connections", "1001"}), "webhook: --max-connections is a number from 1 to 1000"},
          {with({"--max-connections", "8x"}), "webhook: --max-connections is a number from 1 to 1000"},
          {with({"--listen", "8443"}), "webhook: --listen '8443' is not ADDR:PORT"},
          {with({"--listen", "localhost:8443"}), "webhook: --listen 'localhost:8443' is not ADDR:PORT"},
          {with({"--listen", "127.0.0.1:0"}), "webhook: --listen '127.0.0.1:0' is not ADDR:PORT"},
          {with({"--listen", "127.0.0.1:65536"}), "webhook: --listen '127.0.0.1:65536' is not ADDR:PORT"},
          {with({"--listen", "[::1]:"}), "webhook: --listen '[::1]:' is not ADDR:PORT"},
          {with({"--libc", "bionic"}), "webhook: --libc is auto, glibc or musl"},
          {with({"--autopath", "marker"}),
           "webhook: --autopath marker needs --nameserver: the node-local cache, then kube-dns's ClusterIP"},
          {with({"--tls-secret-interval", "0"}), "webhook: --tls-secret-interval is a number from 1 to 86400"},
          {with({"--tls-secret", "resolv-k8s-webhook-tls"}),
           "webhook: --cert and --key are needed, or --tls-secret instead"},
          {{"--image", kImage}, "webhook: --cert and --key are needed, or --tls-secret instead"},
          {{"--image", kImage, "--cert", "/x/tls.crt"}, "webhook: --cert and --key are needed, or --tls-secret instead"},
          {{"check", "--image"}, "webhook check: --image needs a value"},
          {{"check", "--cert", "x"}, "webhook check: unknown flag '--cert'"},
          {{"--cert", "/x/tls.crt", "--key", "/x/tls.key"}, std::string("webhook: ") + test::kImageNeeded},
      });
}

TEST(WebhookCommand, ACertificateItCannotLoadStopsItBeforeItListens) {
  const std::string missing = test::temp_dir() + "no-such-tls.crt";
  const std::string not_pem = test::temp_file("not-pem.crt", "not a certificate\n");
  const UsageCase cases[] = {
      {{"--cert", missing, "--key", missing}, missing + ": No such file or directory"},
      {{"--cert", not_pem, "--key", not_pem}, not_pem + ": not a PEM certificate"},
      // Every form of --listen it reads gets that far.
      {{"--cert", missing, "--key", missing, "--listen", "[::1]:8443"}, missing + ": No such file or directory"},
      {{"--cert", missing, "--key", missing, "--listen", ":8443", "--max-connections", "1000", "--log-level", "Debug"},
       missing + ": No such file or directory"},
  };
  for (const UsageCase& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    Args args = c.args;
    args.insert(args.end(), {"--image", kImage});
    test::expect_exit([&] { return webhook_command(args); }, 1, "resolv-k8s: webhook: " + c.error);
  }
}

}  // namespace
}  // namespace rk8s::tools
