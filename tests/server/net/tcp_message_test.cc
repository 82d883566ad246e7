// SPDX-License-Identifier: Apache-2.0
// DNS over TCP's framing (server/net/tcp_message.h): a message after its
// length in two bytes, taken off a buffer only once it is whole.
#include "server/net/tcp_message.h"

#include <event2/bufferevent.h>
#include <gtest/gtest.h>

#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

Message M(const std::string& text) { return Message(text.begin(), text.end()); }

struct TakeCase {
  const char* rule;
  std::string in;
  std::vector<Message> taken;
  size_t left;  // bytes still in the buffer
};

TEST(TcpMessage, TakenOnlyWhenWhole) {
  const std::string big(300, 'x');  // a length over 255
  const TakeCase cases[] = {
      {"nothing", "", {}, 0},
      {"one byte of the length", framed(M("abc")).substr(0, 1), {}, 1},
      {"the length and part of the message", framed(M("abc")).substr(0, 4), {}, 4},
      {"one whole message", framed(M("abc")), {M("abc")}, 0},
      {"an empty message", framed(Message{}), {Message{}}, 0},
      {"a long one", framed(M(big)), {M(big)}, 0},
      {"two, then part of a third", framed(M("x")) + framed(M("yz")) + framed(M("abcde")).substr(0, 4),
       {M("x"), M("yz")}, 4},
  };
  for (const TakeCase& c : cases) {
    evbuffer* in = evbuffer_new();
    evbuffer_add(in, c.in.data(), c.in.size());
    std::vector<Message> taken;
    for (Message m; take_tcp_message(in, m);) taken.push_back(m);
    EXPECT_EQ(taken, c.taken) << c.rule;
    EXPECT_EQ(evbuffer_get_length(in), c.left) << c.rule;
    evbuffer_free(in);
  }
}

TEST(TcpMessage, PutWritesTheLengthThenTheMessage) {
  event_base* base = event_base_new();
  bufferevent* pair[2];
  ASSERT_EQ(bufferevent_pair_new(base, 0, pair), 0);
  bufferevent_enable(pair[1], EV_READ);
  const Message msg = M(std::string(300, 'q'));
  put_tcp_message(pair[0], msg);
  evbuffer* in = bufferevent_get_input(pair[1]);
  std::string written(evbuffer_get_length(in), '\0');
  evbuffer_copyout(in, written.data(), written.size());
  EXPECT_EQ(written, framed(msg));
  Message back;
  ASSERT_TRUE(take_tcp_message(in, back));
  EXPECT_EQ(back, msg);
  bufferevent_free(pair[0]);
  bufferevent_free(pair[1]);
  event_base_free(base);
}

}  // namespace
}  // namespace rk8s::server::test
