// SPDX-License-Identifier: Apache-2.0
// The worker threads (server/net/workers.h): a loop each, with its own UDP
// socket and TCP listener on every listen address.
#include "server/net/workers.h"

#include <gtest/gtest.h>

#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

Message query(uint16_t id) { return query_for("www.example.com", dns::kTypeA, id); }

TEST(Workers, ServeUdpAndTcpBesideAnotherInstanceThenDrain) {
  const uint16_t port = free_port();
  const Endpoint at = loopback_endpoint(port);
  const Serve echo = echo_serve();
  Workers workers(2, {at}, nullptr, echo, TcpLimits{}, ignore_warnings);
  workers.start();
  UdpClient udp(port);
  udp.send(query(1));
  EXPECT_EQ(udp.receive(), reply_to(query(1)));
  TcpClient tcp(port);
  tcp.send({query(2)});
  EXPECT_EQ(tcp.receive(), reply_to(query(2)));
  {
    // A rolling restart: a second instance binds the same address.
    Workers beside(1, {at}, nullptr, echo, TcpLimits{}, ignore_warnings);
  }
  workers.drain();
  EXPECT_TRUE(workers.idle());
  UdpClient late(port);
  late.send(query(3));
  EXPECT_TRUE(late.receive().empty());
  EXPECT_EQ(errno, ECONNREFUSED);
  workers.stop();
}

}  // namespace
}  // namespace rk8s::server::test
