// SPDX-License-Identifier: Apache-2.0
// The UDP and TCP listeners (server/net/udp.h, tcp.h) on 127.0.0.1, with a
// trivial Serve: the query back as its reply, QR set.
#include <gtest/gtest.h>

#include "server/net/socket.h"
#include "server/net/tcp.h"
#include "server/net/udp.h"
#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

Message query(uint16_t id) { return query_for("www.example.com", dns::kTypeA, id); }

Message of(Bytes b) { return Message(b.data, b.data + b.size); }

// What Serve was told of each client: "udp|tcp ADDR:PORT".
struct Clients {
  std::mutex mutex;
  Strings seen;
  void add(const Client& c) {
    std::lock_guard<std::mutex> lock(mutex);
    seen.push_back(std::string(c.tcp ? "tcp " : "udp ") + address_text(c.addr));
  }
};

// A TCP listener of `serve` on a loopback port of its own, on `thread`'s loop.
struct TcpOnLoop {
  int fd = open_socket(loopback_endpoint(0), SOCK_STREAM);
  std::unique_ptr<TcpListener> listener;
  TcpOnLoop(LoopThread& thread, const Serve& serve, const TcpLimits& limits = {}) {
    listener = thread.call([&] { return std::make_unique<TcpListener>(thread.loop(), fd, serve, limits, ignore_warnings); });
  }
  uint16_t port() const { return local_port(fd); }
};

// Query 1 is answered before any work (at_once), 2 by Serve at once, 3
// with an empty reply (nothing sent), 4 later, from the loop.
TEST(UdpListener, AtOnceServeLaterAndNothing) {
  LoopThread thread;
  Clients clients;
  int fd = open_socket(loopback_endpoint(0), SOCK_DGRAM);
  const uint16_t port = local_port(fd);
  ServeAtOnce at_once = [](Bytes q, const Client&, Message& reply) {
    if (id_of(of(q)) != 1) return false;
    reply = with_id(reply_to(of(q), dns::kRefused), 1);
    return true;
  };
  Serve serve = [&](Bytes q, const Client& client, Answer answer) {
    clients.add(client);
    Message reply = reply_to(of(q));
    if (id_of(reply) == 3) reply.clear();
    if (id_of(reply) != 4) return answer(reply);
    thread.loop().after(0, [answer, reply]() mutable { answer(reply); });
  };
  auto listener = thread.call([&] { return std::make_unique<UdpListener>(thread.loop(), fd, at_once, serve); });

  UdpClient client(port);
  client.send(query(1));
  EXPECT_EQ(client.receive(), reply_to(query(1), dns::kRefused)) << "at once";
  client.send(query(2));
  EXPECT_EQ(client.receive(), reply_to(query(2))) << "served";
  client.send(query(3));
  client.send(query(4));
  EXPECT_EQ(client.receive(), reply_to(query(4))) << "later, and nothing for 3";
  thread.stop();
  const std::string me = "udp 127.0.0.1:" + std::to_string(client.port());
  EXPECT_EQ(clients.seen, (Strings{me, me, me}));
}

// SIGTERM: the socket leaves its SO_REUSEPORT group; with no instance
// beside it, a new query is refused.
TEST(UdpListener, DrainedItTakesNoNewQuery) {
  LoopThread thread;
  int fd = open_socket(loopback_endpoint(0), SOCK_DGRAM);
  const uint16_t port = local_port(fd);
  const Serve echo = echo_serve();
  auto listener = thread.call([&] { return std::make_unique<UdpListener>(thread.loop(), fd, nullptr, echo); });
  UdpClient client(port);
  client.send(query(7));
  EXPECT_EQ(client.receive(), reply_to(query(7)));
  listener->drain();
  EXPECT_TRUE(listener->idle());
  client.send(query(8));
  EXPECT_TRUE(client.receive().empty());
  EXPECT_EQ(errno, ECONNREFUSED);
  thread.stop();
}

// Pipelined queries are answered as their answers are ready, out of order
// (RFC 7766, 6.2.1.1): a slow one holds up no other; an empty answer sends
// nothing.
TEST(TcpListener, PipelinedQueriesAnsweredAsReady) {
  LoopThread thread;
  Clients clients;
  std::vector<std::pair<Message, Answer>> held;  // the loop's thread only
  Serve serve = [&](Bytes q, const Client& client, Answer answer) {
    clients.add(client);
    held.emplace_back(reply_to(of(q)), answer);
    if (held.size() < 4) return;
    for (auto it = held.rbegin(); it != held.rend(); ++it) {  // the last first
      Message reply = id_of(it->first) == 2 ? Message{} : it->first;
      it->second(reply);
    }
  };
  TcpOnLoop tcp(thread, serve);
  TcpClient client(tcp.port());
  client.send({query(1), query(2), query(3), query(4)});
  EXPECT_EQ(client.receive(), reply_to(query(4)));
  EXPECT_EQ(client.receive(), reply_to(query(3)));
  EXPECT_EQ(client.receive(), reply_to(query(1)));
  thread.stop();
  EXPECT_EQ(clients.seen, Strings(4, "tcp 127.0.0.1:" + std::to_string(client.port())));
}

// Two clients, each within its share (every connection left open here is
// 127.0.0.1's).
TEST(TcpListener, ConnectionsBeyondTheLimitAreClosed) {
  LoopThread thread;
  const Serve echo = echo_serve();
  int fd = open_socket(loopback_endpoint(0), SOCK_STREAM);
  TcpLimits limits;
  const uint64_t refused = TcpListener::refused_connections();
  auto listener = thread.call([&] {
    limits.max_clients = TcpListener::open_connections() + 1;
    return std::make_unique<TcpListener>(thread.loop(), fd, echo, limits, ignore_warnings);
  });
  TcpClient first(local_port(fd), "127.0.0.2");
  first.send({query(1)});
  EXPECT_EQ(first.receive(), reply_to(query(1)));
  TcpClient second(local_port(fd), "127.0.0.3");
  EXPECT_TRUE(second.closed_by_peer());
  EXPECT_EQ(TcpListener::refused_connections(), refused + 1);
  first.send({query(2)});
  EXPECT_EQ(first.receive(), reply_to(query(2))) << "the first still served";
  thread.stop();
}

TEST(TcpListener, AnIdleConnectionIsClosed) {
  LoopThread thread;
  const Serve echo = echo_serve();
  TcpLimits limits;
  limits.idle_seconds = 1;
  TcpOnLoop tcp(thread, echo, limits);
  TcpClient client(tcp.port());
  client.send({query(1)});
  EXPECT_EQ(client.receive(), reply_to(query(1)));
  EXPECT_TRUE(client.closed_by_peer());
  thread.stop();
}

// The idle time counts whole queries, not bytes (RFC 7766 6.2.3): a query
// of 65535 bytes trickled in a byte at a time, each well within the idle
// time, is not a reason to keep the connection open.
TEST(TcpListener, AQueryTrickledInIsClosedAtTheIdleTime) {
  LoopThread thread;
  const Serve echo = echo_serve();
  TcpLimits limits;
  limits.idle_seconds = 1;
  TcpOnLoop tcp(thread, echo, limits);
  TcpClient client(tcp.port());
  client.send({query(1)});
  EXPECT_EQ(client.receive(), reply_to(query(1)));
  const std::string trickled = "\xff\xff" + std::string(38, 'x');
  bool closed = false;
  for (size_t i = 0; i < trickled.size() && !closed; i++) {
    client.write_some(trickled.substr(i, 1));
    closed = client.closed_by_peer(200);
  }
  EXPECT_TRUE(closed) << "still open after 40 bytes, one every 200 ms";
  thread.stop();
}

// While a reply is owed the wait is the server's: the connection outlasts
// the idle time for it.
TEST(TcpListener, ASlowAnswerIsWaitedFor) {
  LoopThread thread;
  Serve slow = [&](Bytes q, const Client&, Answer answer) {
    thread.loop().after(1500, [answer, reply = reply_to(of(q))]() mutable { answer(reply); });
  };
  TcpLimits limits;
  limits.idle_seconds = 1;
  TcpOnLoop tcp(thread, slow, limits);
  TcpClient client(tcp.port());
  client.send({query(1)});
  EXPECT_EQ(client.receive(), reply_to(query(1)));
  thread.stop();
}

// At max_per_client connections from one address the next is closed at
// once (client_share_test.cc has the shares).
TEST(TcpListener, ConnectionsOfOneClientBeyondItsCapAreClosed) {
  LoopThread thread;
  const Serve echo = echo_serve();
  TcpLimits limits;
  limits.max_per_client = 1;
  const uint64_t refused = TcpListener::refused_connections();
  TcpOnLoop tcp(thread, echo, limits);
  TcpClient first(tcp.port(), "127.0.0.4");
  first.send({query(1)});
  EXPECT_EQ(first.receive(), reply_to(query(1)));
  TcpClient second(tcp.port(), "127.0.0.4");
  EXPECT_TRUE(second.closed_by_peer());
  EXPECT_EQ(TcpListener::refused_connections(), refused + 1);
  TcpClient other(tcp.port(), "127.0.0.5");
  other.send({query(2)});
  EXPECT_EQ(other.receive(), reply_to(query(2))) << "another address is served";
  thread.stop();
}

// Past max_queries unanswered, a connection is not read: the rest of the
// pipeline waits in the socket until an answer comes.
TEST(TcpListener, ReadingStopsAtMaxQueriesUnanswered) {
  LoopThread thread;
  std::vector<Answer> held;  // the loop's thread only
  std::atomic<size_t> served{0};
  Serve hold = [&](Bytes, const Client&, Answer answer) {
    held.push_back(answer);
    served++;
  };
  TcpLimits limits;
  limits.max_queries = 4;
  TcpOnLoop tcp(thread, hold, limits);
  TcpClient client(tcp.port());
  std::vector<Message> pipeline;
  for (uint16_t id = 1; id <= 50; id++) pipeline.push_back(query(id));
  client.send(pipeline);
  for (int i = 0; i < 100 && served < 4; i++) usleep(10000);
  usleep(100000);  // room for a fifth to come if it would
  EXPECT_EQ(served, 4u);
  thread.call([&] {
    Message reply = reply_to(query(1));
    held.front()(reply);
    return 0;
  });
  EXPECT_EQ(client.receive(), reply_to(query(1)));
  for (int i = 0; i < 100 && served < 5; i++) usleep(10000);
  EXPECT_EQ(served, 5u) << "one answered, one more read";
  thread.call([&] {
    for (size_t i = 1; i < held.size(); i++) {
      Message none;
      held[i](none);
    }
    return 0;
  });
  thread.stop();
}

// A client that pipelines and never reads: its replies pile up to
// kMaxUnread at most, then it is closed.
TEST(TcpListener, AClientThatLeavesRepliesUnreadIsClosed) {
  LoopThread thread;
  Serve big = [](Bytes q, const Client&, Answer answer) {
    Message reply = reply_to(Message(q.data, q.data + q.size));
    reply.resize(60000);
    answer(reply);
  };
  const uint64_t closed = TcpListener::unread_closes();
  TcpLimits limits;
  limits.idle_seconds = 1;
  TcpOnLoop tcp(thread, big, limits);
  TcpClient client(tcp.port());
  std::string pipeline;
  for (uint16_t id = 1; id <= 3000; id++) pipeline += framed(query(id));
  client.write_some(pipeline);
  for (int i = 0; i < kWaitMs / 10 && TcpListener::unread_closes() == closed; i++) usleep(10000);
  EXPECT_EQ(TcpListener::unread_closes(), closed + 1);
  thread.stop();
}

}  // namespace
}  // namespace rk8s::server::test
