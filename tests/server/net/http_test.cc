// SPDX-License-Identifier: Apache-2.0
// The HTTP endpoints (server/net/http.h): /health, /ready and /metrics on
// the health address; /metrics alone on the metrics address.
#include "server/net/http.h"

#include <gtest/gtest.h>

#include <atomic>

#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

struct HttpCase {
  const char* rule;
  bool health;  // asked at the health address, else the metrics one
  const char* path;
  bool ready;
  const char* status;  // "CODE REASON"
  const char* body;
};

// "CODE REASON" and the body of an HTTP/1.0 GET of `path`.
std::pair<std::string, std::string> get(uint16_t port, const std::string& path) {
  TcpClient client(port);
  client.write_text("GET " + path + " HTTP/1.0\r\n\r\n");
  std::string reply = client.read_to_end();
  size_t first = reply.find(' '), eol = reply.find("\r\n"), body = reply.find("\r\n\r\n");
  if (first == std::string::npos || eol == std::string::npos || body == std::string::npos) return {reply, ""};
  return {reply.substr(first + 1, eol - first - 1), reply.substr(body + 4)};
}

TEST(HttpServer, HealthReadyMetricsAndNotFound) {
  const char* metrics = "resolv_k8s_test_total 1\n";
  const HttpCase cases[] = {
      {"health", true, "/health", true, "200 OK", "OK\n"},
      {"ready", true, "/ready", true, "200 OK", "ready\n"},
      {"not ready", true, "/ready", false, "503 Service Unavailable", "not ready\n"},
      {"metrics at the health address", true, "/metrics", true, "200 OK", metrics},
      {"anything else", true, "/nope", true, "404 Not Found", "not found\n"},
      {"metrics", false, "/metrics", true, "200 OK", metrics},
      {"the metrics address serves /metrics only", false, "/health", true, "404 Not Found",
       "not found: /metrics\n"},
  };
  const uint16_t health_port = free_port();
  uint16_t metrics_port = free_port();
  while (metrics_port == health_port) metrics_port = free_port();  // one address would be one server
  std::atomic<bool> ready{true};
  LoopThread thread;
  auto server = thread.call([&] {
    return std::make_unique<HttpServer>(thread.loop(), loopback_endpoint(health_port),
                                        loopback_endpoint(metrics_port),
                                        HttpHandlers{[&] { return bool(ready); }, [&] { return std::string(metrics); }},
                                        HttpLimits{}, ignore_warnings);
  });
  for (const HttpCase& c : cases) {
    ready = c.ready;
    auto [status, body] = get(c.health ? health_port : metrics_port, c.path);
    EXPECT_EQ(status, c.status) << c.rule;
    EXPECT_EQ(body, c.body) << c.rule;
  }
  thread.stop();
}

// At its share of max_clients (a lone client: half) a client's new
// connection takes the place of its own idle the longest, so a probe gets
// through idle connections; a connection that
// sends no whole request is closed after the timeout; other methods than
// GET and HEAD are refused, and requests over kMaxRequest.
TEST(HttpServer, ConnectionsAreBounded) {
  const uint16_t port = free_port();
  LoopThread thread;
  auto server = thread.call([&] {
    return std::make_unique<HttpServer>(thread.loop(), loopback_endpoint(port), std::nullopt,
                                        HttpHandlers{[] { return true; }, [] { return std::string(); }},
                                        HttpLimits{4, 1}, ignore_warnings);
  });
  auto open = [&] { return thread.call([&] { return server->open_connections(); }); };
  TcpClient first(port);
  for (int i = 0; i < 100 && open() < 1; i++) usleep(10000);
  TcpClient second(port);
  for (int i = 0; i < 100 && open() < 2; i++) usleep(10000);
  EXPECT_EQ(open(), 2u);
  TcpClient probe(port);
  probe.write_text("GET /health HTTP/1.0\r\n\r\n");
  std::string reply = probe.read_to_end();
  EXPECT_EQ(reply.substr(0, 15), "HTTP/1.0 200 OK") << reply;
  EXPECT_TRUE(first.closed_by_peer()) << "the oldest idle made room";
  EXPECT_EQ(thread.call([&] { return server->evicted(); }), 1u);
  EXPECT_TRUE(second.closed_by_peer()) << "idle past the timeout";

  TcpClient post(port);
  post.write_text("POST /health HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(post.read_to_end().substr(0, 12), "HTTP/1.0 405") << "GET and HEAD only";
  TcpClient huge(port);
  huge.write_text("GET /health HTTP/1.0\r\nX: " + std::string(HttpServer::kMaxRequest, 'x') + "\r\n\r\n");
  EXPECT_EQ(huge.read_to_end().substr(0, 12), "HTTP/1.1 431") << "a request too large";
  thread.stop();
}

// httpTimeout is for the whole request: bytes trickled in, each well
// within it, do not put it off.
TEST(HttpServer, ARequestTrickledInIsClosedAtTheTimeout) {
  const uint16_t port = free_port();
  LoopThread thread;
  auto server = thread.call([&] {
    return std::make_unique<HttpServer>(thread.loop(), loopback_endpoint(port), std::nullopt,
                                        HttpHandlers{[] { return true; }, [] { return std::string(); }},
                                        HttpLimits{16, 1}, ignore_warnings);
  });
  TcpClient slow(port);
  const std::string request = "GET /health HTTP/1.0\r\nX-Slow: " + std::string(24, 'x');
  bool closed = false;
  for (size_t i = 0; i < request.size() && !closed; i++) {
    slow.write_some(request.substr(i, 1));
    closed = slow.closed_by_peer(200);
  }
  EXPECT_TRUE(closed) << "still open after " << request.size() << " bytes, one every 200 ms";
  thread.stop();
}

// At max_per_client, a client's new connection takes the place of its own
// oldest idle one, whatever room is left.
TEST(HttpServer, AClientAtItsCapMakesRoomFromItsOwn) {
  const uint16_t port = free_port();
  LoopThread thread;
  auto server = thread.call([&] {
    return std::make_unique<HttpServer>(thread.loop(), loopback_endpoint(port), std::nullopt,
                                        HttpHandlers{[] { return true; }, [] { return std::string(); }},
                                        HttpLimits{16, 5, 1}, ignore_warnings);
  });
  TcpClient idle(port);
  for (int i = 0; i < 100 && thread.call([&] { return server->open_connections(); }) < 1; i++) usleep(10000);
  TcpClient probe(port);
  probe.write_text("GET /health HTTP/1.0\r\n\r\n");
  EXPECT_EQ(probe.read_to_end().substr(0, 15), "HTTP/1.0 200 OK");
  EXPECT_TRUE(idle.closed_by_peer());
  EXPECT_EQ(thread.call([&] { return server->evicted(); }), 1u);
  thread.stop();
}

}  // namespace
}  // namespace rk8s::server::test
