// SPDX-License-Identifier: Apache-2.0
// Listening sockets and addresses as text (server/net/socket.h).
#include "server/net/socket.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

struct AddressCase {
  const char* ip;
  uint16_t port;
  const char* text;
};

TEST(AddressText, AddressColonPortAndBracketsForIpv6) {
  const AddressCase cases[] = {
      {"10.0.0.1", 5353, "10.0.0.1:5353"},
      {"127.0.0.1", 0, "127.0.0.1:0"},
      {"fd00::1", 53, "[fd00::1]:53"},
      {"::", 65535, "[::]:65535"},
      {"::ffff:10.0.0.1", 53, "[::ffff:10.0.0.1]:53"},
  };
  for (const AddressCase& c : cases) {
    IpAddr ip;
    ASSERT_TRUE(parse_ip(c.ip, ip)) << c.ip;
    sockaddr_storage ss{};
    ip_to_sockaddr(ip, c.port, &ss);
    EXPECT_EQ(address_text(ss), c.text);
  }
}

// SO_REUSEPORT: a second instance binds beside the first; a socket
// without it in the way is an error naming the address.
TEST(OpenSocket, BesideItselfButNotBesideOthers) {
  for (int type : {SOCK_DGRAM, SOCK_STREAM}) {
    const char* proto = type == SOCK_DGRAM ? "udp" : "tcp";
    int first = open_socket(loopback_endpoint(0), type);
    const Endpoint at = loopback_endpoint(local_port(first));
    int second = -1;
    EXPECT_NO_THROW(second = open_socket(at, type)) << proto;
    close(first);
    close(second);

    int plain = socket(AF_INET, type | SOCK_CLOEXEC, 0);
    sockaddr_in sa = loopback_addr(0);
    ASSERT_EQ(bind(plain, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
    if (type == SOCK_STREAM) listen(plain, 1);
    const Endpoint taken = loopback_endpoint(local_port(plain));
    try {
      close(open_socket(taken, type));
      ADD_FAILURE() << proto << ": bound beside a socket without SO_REUSEPORT";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "bind " + taken.text + "/" + proto + ": Address already in use");
    }
    close(plain);
  }
}

}  // namespace
}  // namespace rk8s::server::test
