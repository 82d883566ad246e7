// SPDX-License-Identifier: Apache-2.0
// The transport against in-process DNS responders on 127.0.0.x port 53.
// Runs inside `unshare --net` (mk/transport.mk): the namespace is private.
#include <arpa/inet.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "transport/channel.h"
#include "transport/dead_servers.h"
#include "transport/exchange.h"

using namespace rk8s;

// Every file c-ares opens, to prove it reads no configuration.
static std::mutex fopen_mu;
static std::vector<std::string> fopen_paths;
static FILE* logged_fopen(const char* sym, const char* path, const char* mode) {
  {
    std::lock_guard<std::mutex> l(fopen_mu);
    fopen_paths.push_back(path);
  }
  auto real = reinterpret_cast<FILE* (*)(const char*, const char*)>(dlsym(RTLD_NEXT, sym));
  return real(path, mode);
}
extern "C" FILE* fopen(const char* path, const char* mode) {
  return logged_fopen("fopen", path, mode);
}
extern "C" FILE* fopen64(const char* path, const char* mode) {
  return logged_fopen("fopen64", path, mode);
}

namespace {

constexpr uint16_t kA = 1, kAAAA = 28;

std::string query(uint16_t id, const char* name, uint16_t qtype) {
  std::string q = {char(id >> 8), char(id), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0};
  for (const char* p = name; *p;) {
    const char* dot = strchr(p, '.');
    size_t n = dot ? size_t(dot - p) : strlen(p);
    q += char(n);
    q.append(p, n);
    p += n + (dot ? 1 : 0);
  }
  q += '\0';
  q += {char(qtype >> 8), char(qtype), 0, 1};
  return q;
}

// A reply to `q` with `rcode` and one A record per address in `ips`.
std::string reply(const std::string& q, uint8_t rcode, std::vector<uint32_t> ips = {},
                  uint8_t extra_flags = 0) {
  std::string r = q;
  r[2] = char(0x81 | extra_flags);
  r[3] = char(0x80 | rcode);
  r[6] = char(ips.size() >> 8);
  r[7] = char(ips.size());
  for (uint32_t ip : ips)
    r += {char(0xc0), 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, char(ip >> 24), char(ip >> 16),
          char(ip >> 8), char(ip)};
  return r;
}

uint32_t first_a(const Reply& r) {
  if (r.status != Reply::ok || r.len < 12) return 0;
  size_t qend = 12;
  while (qend < r.len && r.msg[qend]) qend += r.msg[qend] + 1;
  size_t rd = qend + 5 + 12;
  if (rd + 4 > r.len) return 0;
  return load32(r.msg + rd);
}

struct Seen {
  std::string bytes;
  bool tcp;
  uint16_t port;
};

// A DNS server on 127.0.0.x:53, UDP and TCP, answering with `handler`.
class Responder {
 public:
  using Handler = std::function<std::vector<std::string>(const Seen&)>;

  Responder(uint8_t host, Handler h, bool hold_pairs = false)
      : handler_(std::move(h)), hold_pairs_(hold_pairs) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(53);
    a.sin_addr.s_addr = htonl(0x7f000000u | host);
    udp_ = socket(AF_INET, SOCK_DGRAM, 0);
    tcp_ = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(tcp_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(udp_, (sockaddr*)&a, sizeof a) || bind(tcp_, (sockaddr*)&a, sizeof a) ||
        listen(tcp_, 8))
      ADD_FAILURE() << "cannot bind 127.0.0." << int(host) << ":53 (run in unshare --net)";
    thread_ = std::thread([this] { loop(); });
  }
  ~Responder() {
    stop_ = true;
    thread_.join();
    close(udp_);
    close(tcp_);
  }

  std::vector<Seen> seen() {
    std::lock_guard<std::mutex> l(mu_);
    return seen_;
  }
  std::string events() {
    std::lock_guard<std::mutex> l(mu_);
    return events_;
  }

 private:
  void note(const Seen& s) {
    std::lock_guard<std::mutex> l(mu_);
    seen_.push_back(s);
    events_ += 'q';
  }
  void sent() {
    std::lock_guard<std::mutex> l(mu_);
    events_ += 'r';
  }

  void loop() {
    struct Held {
      std::string msg;
      sockaddr_in to;
    };
    std::vector<Held> held;
    auto held_since = std::chrono::steady_clock::now();
    auto flush = [&] {
      for (auto& h : held) {
        sent();  // before the client can see it
        sendto(udp_, h.msg.data(), h.msg.size(), 0, (sockaddr*)&h.to, sizeof h.to);
      }
      held.clear();
    };
    while (!stop_) {
      pollfd p[2] = {{udp_, POLLIN, 0}, {tcp_, POLLIN, 0}};
      poll(p, 2, 20);
      // Holding answers until two queries are in (or 300 ms pass) shows
      // whether the client sent the second before the first was answered.
      if (!held.empty() &&
          std::chrono::steady_clock::now() - held_since > std::chrono::milliseconds(300))
        flush();
      if (p[0].revents & POLLIN) {
        char buf[65536];
        sockaddr_in from{};
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(udp_, buf, sizeof buf, 0, (sockaddr*)&from, &fl);
        if (n <= 0) continue;
        Seen s{std::string(buf, size_t(n)), false, ntohs(from.sin_port)};
        note(s);
        for (auto& m : handler_(s)) {
          if (held.empty()) held_since = std::chrono::steady_clock::now();
          held.push_back({m, from});
        }
        if (!hold_pairs_ || held.size() >= 2) flush();
      }
      if (p[1].revents & POLLIN) serve_tcp(accept(tcp_, nullptr, nullptr));
    }
  }

  void serve_tcp(int c) {
    sockaddr_in peer{};
    socklen_t pl = sizeof peer;
    getpeername(c, (sockaddr*)&peer, &pl);
    std::string in;
    pollfd p = {c, POLLIN, 0};
    while (!stop_ && poll(&p, 1, 2000) > 0) {
      char buf[65536];
      ssize_t n = read(c, buf, sizeof buf);
      if (n <= 0) break;
      in.append(buf, size_t(n));
      while (in.size() >= 2 && in.size() >= 2 + size_t(uint8_t(in[0]) << 8 | uint8_t(in[1]))) {
        size_t len = size_t(uint8_t(in[0]) << 8 | uint8_t(in[1]));
        Seen s{in.substr(2, len), true, ntohs(peer.sin_port)};
        in.erase(0, 2 + len);
        note(s);
        for (auto& m : handler_(s)) {
          std::string framed = {char(m.size() >> 8), char(m.size())};
          framed += m;
          sent();
          if (write(c, framed.data(), framed.size()) < 0) break;
        }
      }
    }
    close(c);
  }

  Handler handler_;
  bool hold_pairs_;
  int udp_ = -1, tcp_ = -1;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<Seen> seen_;
  std::string events_;
  std::thread thread_;
};

Responder::Handler answer(uint32_t ip) {
  return [ip](const Seen& s) { return std::vector<std::string>{reply(s.bytes, 0, {ip})}; };
}
Responder::Handler rcode(uint8_t rc) {
  return [rc](const Seen& s) { return std::vector<std::string>{reply(s.bytes, rc)}; };
}
// NOERROR without records, AA or RA.
Responder::Handler referral() {
  return [](const Seen& q) {
    std::string r = reply(q.bytes, 0);
    r[3] = 0;
    return std::vector<std::string>{r};
  };
}
Responder::Handler silent() {
  return [](const Seen&) { return std::vector<std::string>{}; };
}

// A test's nameservers; the servers earlier tests found dead forgotten.
Config config(std::initializer_list<uint8_t> hosts, uint8_t timeout = 2, uint8_t attempts = 2) {
  forget_dead_servers();
  Config c;
  for (uint8_t h : hosts) {
    IpAddr ns;
    ns.family = AF_INET;
    ns.addr[0] = 127;
    ns.addr[3] = h;
    c.ns.push(ns);
  }
  c.opt.timeout = timeout;
  c.opt.attempts = attempts;
  return c;
}

// Sends A and AAAA for `name` (or only A when n == 1).
struct Exchange {
  std::string q[2];
  Bytes b[2];
  Reply r[2];
  Exchange(const Config& conf, size_t n = 2, const char* name = "web.example") {
    q[0] = query(random_query_id(), name, kA);
    q[1] = query(random_query_id(), name, kAAAA);
    for (int i = 0; i < 2; i++) b[i] = Bytes{(const uint8_t*)q[i].data(), q[i].size()};
    exchange(conf, b, r, n);
  }
};

TEST(Transport, PairGoesOutTogetherOnOneSocket) {
  Responder s(2, answer(0x01020304), /*hold_pairs=*/true);
  Exchange e(config({2}));
  ASSERT_EQ(e.r[0].status, Reply::ok);
  ASSERT_EQ(e.r[1].status, Reply::ok);
  EXPECT_EQ(e.r[0].server, 0);
  EXPECT_EQ(first_a(e.r[0]), 0x01020304u);
  EXPECT_EQ(load16(e.r[0].msg), load16(e.b[0].data));  // the caller's ID, unchanged
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].port, seen[1].port);
  EXPECT_EQ(seen[0].bytes, e.q[0]);  // the caller's bytes, unchanged
  EXPECT_EQ(s.events(), "qqrr");     // the second went out before the first was answered
}

TEST(Transport, SingleRequestSerialisesOnOneSocket) {
  Responder s(2, answer(0x01020304), true);
  Config c = config({2});
  c.opt.single_request = true;
  Exchange e(c);
  ASSERT_EQ(e.r[0].status, Reply::ok);
  ASSERT_EQ(e.r[1].status, Reply::ok);
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].port, seen[1].port);
  EXPECT_EQ(s.events(), "qrqr");
}

TEST(Transport, SingleRequestReopenUsesTwoSockets) {
  Responder s(2, answer(0x01020304), true);
  Config c = config({2});
  c.opt.single_request_reopen = true;
  Exchange e(c);
  ASSERT_EQ(e.r[1].status, Reply::ok);
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_NE(seen[0].port, seen[1].port);
  EXPECT_EQ(s.events(), "qrqr");
}

TEST(Transport, SilentFirstServerThenSecondAnswers) {
  Responder quiet(2, silent());
  Responder s(3, answer(0x05060708));
  Exchange e(config({2, 3}, /*timeout=*/1, /*attempts=*/1));
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(e.r[0].server, 1);
  EXPECT_EQ(e.r[1].server, 1);
  EXPECT_EQ(first_a(e.r[0]), 0x05060708u);
  EXPECT_EQ(quiet.seen().size(), 2u);
}

// The node-local cache gone: the first exchange waits it out, the next ones
// within the process ask the second server first; an answer brings it back.
TEST(Transport, ServerThatTimedOutIsAskedLastAfterwards) {
  Responder quiet(2, silent());
  Responder s(3, answer(0x05060708));
  Config c = config({2, 3}, /*timeout=*/1, /*attempts=*/2);
  Exchange first(c);
  ASSERT_EQ(first.r[0].status, Reply::ok);
  EXPECT_EQ(quiet.seen().size(), 2u);
  for (int i = 0; i < 3; i++) {
    Exchange later(c);
    ASSERT_EQ(later.r[0].status, Reply::ok);
    EXPECT_EQ(later.r[0].server, 1);
  }
  EXPECT_EQ(quiet.seen().size(), 2u);  // not asked again
  EXPECT_EQ(s.seen().size(), 8u);
  note_server(c.ns[0], true);  // it answered elsewhere
  Exchange again(c);
  EXPECT_EQ(quiet.seen().size(), 4u);  // first again
}

TEST(Transport, UnreachableServerIsAskedLastAfterwards) {
  Responder s(3, answer(0x05060708));
  Config c = config({9, 3});  // nothing on 127.0.0.9: ICMP port unreachable
  Exchange first(c);
  ASSERT_EQ(first.r[0].status, Reply::ok);
  EXPECT_TRUE(server_is_dead(c.ns[0]));
  EXPECT_FALSE(server_is_dead(c.ns[1]));
}

TEST(Transport, EveryServerSaysServfail) {
  Responder a(2, rcode(2)), b(3, rcode(2));
  Exchange e(config({2, 3}, 2, /*attempts=*/2));
  EXPECT_EQ(e.r[0].status, Reply::servfail);
  EXPECT_EQ(e.r[1].status, Reply::servfail);
  EXPECT_EQ(a.seen().size(), 4u);  // attempts, then servers: each asked twice per query
  EXPECT_EQ(b.seen().size(), 4u);
}

TEST(Transport, UseVcTakesServfailFromTheFirstServer) {
  Responder a(2, rcode(2)), b(3, answer(0x01020304));
  Config c = config({2, 3});
  c.opt.use_vc = true;
  Exchange e(c);
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(e.r[0].msg[3] & 0x0f, 2);
  EXPECT_EQ(e.r[0].server, 0);
  EXPECT_TRUE(b.seen().empty());
}

TEST(Transport, RefusedThenAnswerFromTheNextServer) {
  Responder a(2, rcode(5)), b(3, answer(0x0a0b0c0d));
  Exchange e(config({2, 3}));
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(e.r[0].server, 1);
}

TEST(Transport, NoListenerAnywhereIsConnRefusedWithoutTimeouts) {
  // A timeout would end as `timeout`, not `conn_refused`.
  Exchange e(config({9, 10}, /*timeout=*/5, /*attempts=*/2));
  EXPECT_EQ(e.r[0].status, Reply::conn_refused);
  EXPECT_EQ(e.r[1].status, Reply::conn_refused);
}

TEST(Transport, FormerrComesBackAsAReply) {
  Responder s(2, rcode(1));
  Exchange e(config({2}), 1);
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(e.r[0].msg[3] & 0x0f, 1);
  EXPECT_EQ(s.seen().size(), 1u);
}

// glibc's send_dg takes a referral() for no answer and asks the next
// server, as after SERVFAIL; musl, and glibc over TCP, take it for NODATA.
TEST(Transport, GlibcDropsAReferralOverUdpAndAsksTheNextServer) {
  Responder a(2, referral()), b(3, rcode(0));
  Config c = config({2, 3}, 2, /*attempts=*/1);
  Exchange glibc(c);
  EXPECT_EQ(glibc.r[0].status, Reply::ok);
  EXPECT_EQ(glibc.r[0].server, 1);
  EXPECT_EQ(glibc.r[1].server, 1);
  c.opt.use_vc = true;
  EXPECT_EQ(Exchange(c).r[0].server, 0);
  c.opt.use_vc = false;
  c.dialect = Dialect::musl;
  Exchange musl(c);
  EXPECT_EQ(musl.r[0].status, Reply::ok);
  EXPECT_EQ(musl.r[0].server, 0);
}

TEST(Transport, EveryServerSendsAReferral) {
  Responder a(2, referral());
  Exchange e(config({2}, 2, /*attempts=*/1));
  EXPECT_EQ(e.r[0].status, Reply::lame);
  EXPECT_EQ(e.r[1].status, Reply::lame);
}

TEST(Transport, TruncatedUdpReplyIsAskedAgainOverTcp) {
  Responder s(2, [](const Seen& q) {
    return std::vector<std::string>{q.tcp ? reply(q.bytes, 0, {0x02020202})
                                          : reply(q.bytes, 0, {}, /*TC=*/0x02)};
  });
  Exchange e(config({2}), 1);
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(first_a(e.r[0]), 0x02020202u);
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_FALSE(seen[0].tcp);
  EXPECT_TRUE(seen[1].tcp);
}

// glibc's send_dg stops at a truncated reply and sends both queries again
// over TCP, where every rcode is taken: the pair's SERVFAIL comes over TCP.
TEST(Transport, GlibcSendsThePairAgainOverTcpAfterATruncatedReply) {
  Responder s(2, [](const Seen& q) {
    bool aaaa = q.bytes[q.bytes.size() - 3] == kAAAA;
    if (!aaaa) return std::vector<std::string>{reply(q.bytes, 2)};
    return std::vector<std::string>{q.tcp ? reply(q.bytes, 0, {0x02020202})
                                          : reply(q.bytes, 0, {}, /*TC=*/0x02)};
  });
  Exchange e(config({2}));
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(e.r[0].msg[3] & 0x0f, 2);
  ASSERT_EQ(e.r[1].status, Reply::ok);
  EXPECT_EQ(first_a(e.r[1]), 0x02020202u);
  size_t tcp = 0;
  for (const Seen& q : s.seen()) tcp += q.tcp;
  EXPECT_EQ(tcp, 2u);
}

TEST(Transport, UdpReplyOver512BytesIsAskedAgainOverTcp) {
  Responder s(2, [](const Seen& q) {
    std::vector<uint32_t> many(40, q.tcp ? 0x03030303 : 0x04040404);
    return std::vector<std::string>{reply(q.bytes, 0, many)};
  });
  Exchange e(config({2}), 1);
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_GT(e.r[0].len, 512u);
  EXPECT_EQ(first_a(e.r[0]), 0x03030303u);
  EXPECT_TRUE(s.seen().back().tcp);
}

TEST(Transport, UseVcSendsOnlyOverTcp) {
  Responder s(2, answer(0x01010101));
  Config c = config({2});
  c.opt.use_vc = true;
  Exchange e(c);
  ASSERT_EQ(e.r[1].status, Reply::ok);
  for (auto& q : s.seen()) EXPECT_TRUE(q.tcp);
}

TEST(Transport, AttemptsZeroSendsNothing) {
  Responder s(2, answer(0x01010101));
  Exchange e(config({2}, 2, /*attempts=*/0));
  EXPECT_EQ(e.r[0].status, Reply::not_sent);
  EXPECT_EQ(e.r[1].status, Reply::not_sent);
  EXPECT_TRUE(s.seen().empty());
}

TEST(Transport, SpoofedAndBrokenRepliesAreIgnored) {
  Responder s(2, [](const Seen& q) {
    std::string wrong_id = reply(q.bytes, 0, {0x06060606});
    wrong_id[1] ^= 1;
    std::string wrong_question = reply(query(load16((const uint8_t*)q.bytes.data()),
                                             "evil.example", kA),
                                       0, {0x06060606});
    std::string no_question = reply(q.bytes, 0).substr(0, 12);
    no_question[5] = 0;
    return std::vector<std::string>{wrong_id, wrong_question, "\x12\x34\x81", no_question,
                                    reply(q.bytes, 0, {0x07070707})};
  });
  Exchange e(config({2}), 1);
  ASSERT_EQ(e.r[0].status, Reply::ok);
  EXPECT_EQ(first_a(e.r[0]), 0x07070707u);
}

TEST(Transport, RotateStartsEachExchangeAtTheNextServer) {
  Responder a(2, answer(0x01010101)), b(3, answer(0x02020202));
  Config c = config({2, 3});
  c.opt.rotate = true;
  Exchange e1(c, 1), e2(c, 1);
  ASSERT_EQ(e1.r[0].status, Reply::ok);
  ASSERT_EQ(e2.r[0].status, Reply::ok);
  EXPECT_NE(e1.r[0].server, e2.r[0].server);
}

TEST(Transport, ChannelFollowsConfigChanges) {
  Responder a(2, answer(0x01010101)), b(3, answer(0x02020202));
  Exchange e1(config({2}), 1);
  EXPECT_EQ(first_a(e1.r[0]), 0x01010101u);  // before the next exchange reuses the buffer
  Exchange e2(config({3}), 1);
  EXPECT_EQ(first_a(e2.r[0]), 0x02020202u);
  Config vc = config({3});
  vc.opt.use_vc = true;
  Exchange e3(vc, 1);
  ASSERT_EQ(e3.r[0].status, Reply::ok);
  EXPECT_TRUE(b.seen().back().tcp);
}

TEST(Transport, ChildAfterForkInAThreadedProcessGetsItsOwnChannel) {
  Responder s(2, answer(0x01010101));
  Config c = config({2});
  Exchange before(c, 1);
  ASSERT_EQ(before.r[0].status, Reply::ok);
  // Another thread holds a channel of its own across the fork.
  std::mutex mu;
  std::condition_variable cv;
  bool ready = false, done = false;
  std::thread t([&] {
    Exchange e(c, 1);
    std::unique_lock<std::mutex> l(mu);
    ready = e.r[0].status == Reply::ok;
    cv.notify_all();
    cv.wait(l, [&] { return done; });
  });
  {
    std::unique_lock<std::mutex> l(mu);
    cv.wait(l, [&] { return ready; });
  }
  pid_t pid = fork();
  if (pid == 0) {
    Exchange e(c, 2);
    _exit(e.r[0].status == Reply::ok && e.r[1].status == Reply::ok ? 0 : 1);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  {
    std::lock_guard<std::mutex> l(mu);
    done = true;
  }
  cv.notify_all();
  t.join();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  Exchange after(c, 1);
  EXPECT_EQ(after.r[0].status, Reply::ok);
  EXPECT_EQ(s.seen().size(), 5u);  // before, thread, child's two, after
}

// A child forked while another thread held the dead servers' lock does not
// wait for it forever. A fork lands inside the lock a few times in a
// hundred: 500 tries.
TEST(Transport, ChildForkedWhileAThreadNotesServersAsksAboutThem) {
  Config c = config({2});
  std::atomic<bool> stop{false};
  std::thread t([&] {
    while (!stop) note_server(c.ns[0], false);
  });
  int hung = 0;
  for (int i = 0; i < 500 && hung == 0; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      alarm(10);  // a failure, not a hang
      server_is_dead(c.ns[0]);
      _exit(0);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    hung += WIFSIGNALED(status);
  }
  stop = true;
  t.join();
  forget_dead_servers();
  EXPECT_EQ(hung, 0) << "a child spun on a lock its parent's thread held";
}

TEST(Transport, CaresReadsNoConfigurationAndIgnoresTheEnvironment) {
  setenv("LOCALDOMAIN", "env.example", 1);
  setenv("RES_OPTIONS", "ndots:9 retry:5 retrans:7777 rotate", 1);
  {
    std::lock_guard<std::mutex> l(fopen_mu);
    fopen_paths.clear();
  }
  Config c = config({77}, /*timeout=*/3);
  Channels* chs = begin_exchange(c);
  ASSERT_NE(chs, nullptr);
  ares_channel ch = server_channel(*chs, 0, false);
  ASSERT_NE(ch, nullptr);
  unsetenv("LOCALDOMAIN");
  unsetenv("RES_OPTIONS");
  {
    std::lock_guard<std::mutex> l(fopen_mu);
    for (auto& p : fopen_paths) EXPECT_EQ(p, "/dev/urandom");
  }
  ares_options o;
  int mask = 0;
  ASSERT_EQ(ares_save_options(ch, &o, &mask), ARES_SUCCESS);
  EXPECT_EQ(o.ndots, 1);
  EXPECT_EQ(o.tries, 1);
  EXPECT_EQ(o.timeout, 3000);
  EXPECT_EQ(o.ndomains, 0);
  EXPECT_TRUE(mask & ARES_OPT_NOROTATE);
  EXPECT_FALSE(o.flags & ARES_FLAG_EDNS);
  ares_destroy_options(&o);
}

// The descriptor of our socket connected to 127.0.0.host:53, or -1.
int socket_to(uint8_t host) {
  for (int fd = 0; fd < 1024; fd++) {
    sockaddr_in peer{};
    socklen_t len = sizeof peer;
    if (getpeername(fd, (sockaddr*)&peer, &len) == 0 && peer.sin_family == AF_INET &&
        peer.sin_addr.s_addr == htonl(0x7f000000u | host) && peer.sin_port == htons(53))
      return fd;
  }
  return -1;
}

std::vector<uint16_t> ports(Responder& r) {
  std::vector<uint16_t> p;
  for (auto& s : r.seen()) p.push_back(s.port);
  return p;
}

// As glibc opens, connects and closes a socket for every res_send: each
// exchange from a source port of its own, no socket left behind.
TEST(Transport, EveryExchangeHasASocketOfItsOwn) {
  Responder s(40, answer(0x01010101));
  Config c = config({40});
  for (int i = 0; i < 70; i++) {
    ASSERT_EQ(Exchange(c, 2).r[1].status, Reply::ok);
    ASSERT_EQ(socket_to(40), -1) << "exchange " << i;
  }
  auto p = ports(s);
  ASSERT_EQ(p.size(), 140u);
  std::set<uint16_t> distinct;
  for (size_t i = 0; i < p.size(); i += 2) {
    EXPECT_EQ(p[i], p[i + 1]);  // the pair shares its socket, as glibc's does
    distinct.insert(p[i]);
  }
  // The kernel picks each port at random: a few may come up twice.
  EXPECT_GT(distinct.size(), 60u);
}

// Answers "left.example" with 1.1.1.1 and any other name with 2.2.2.2,
// each 200 ms after it came.
Responder::Handler slowly() {
  return [](const Seen& q) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    bool left = q.bytes.find("left") != std::string::npos;
    return std::vector<std::string>{reply(q.bytes, 0, {left ? 0x01010101u : 0x02020202u})};
  };
}

sigjmp_buf left_at;
void leave(int) { siglongjmp(left_at, 1); }

// A program's SIGALRM handler leaves an exchange by siglongjmp (wget's
// --timeout, curl's synchronous resolver): the replies it waited for come
// during the next exchange on the thread, which must neither see them nor
// reach the left frame through them.
TEST(Transport, ExchangeLeftBySiglongjmpLeavesTheNextItsOwnReplies) {
  Responder s(81, slowly());
  Config c = config({81});
  struct sigaction sa = {}, old;
  sa.sa_handler = leave;
  sigaction(SIGALRM, &sa, &old);
  if (!sigsetjmp(left_at, 1)) {
    itimerval t = {{0, 0}, {0, 50000}};
    setitimer(ITIMER_REAL, &t, nullptr);
    Exchange left(c, 2, "left.example");
    ADD_FAILURE() << "the exchange ended before the signal";
  }
  sigaction(SIGALRM, &old, nullptr);
  for (int i = 0; i < 2; i++) {
    Exchange after(c, 2, "web.example");
    EXPECT_EQ(after.r[0].status, Reply::ok);
    EXPECT_EQ(after.r[1].status, Reply::ok);
    EXPECT_EQ(first_a(after.r[0]), 0x02020202u);
  }
}

// pthread_cancel at the exchange's poll: the thread's channels go at its
// exit, their queries' callbacks not run into the unwound frame.
TEST(Transport, ExchangeCancelledLeavesNoSocketAndNoCallback) {
  Responder s(82, slowly());
  static Config c;
  c = config({82});
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, nullptr, [](void*) -> void* {
              Exchange left(c, 2, "left.example");
              return nullptr;
            }, nullptr), 0);
  while (s.seen().size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  pthread_cancel(t);
  void* ended;
  pthread_join(t, &ended);
  EXPECT_EQ(ended, PTHREAD_CANCELED);
  EXPECT_EQ(socket_to(82), -1);
  Exchange after(c, 2, "web.example");
  EXPECT_EQ(first_a(after.r[0]), 0x02020202u);
}

TEST(Transport, RandomQueryIdsDiffer) {
  std::set<uint16_t> ids;
  for (int i = 0; i < 64; i++) ids.insert(random_query_id());
  EXPECT_GT(ids.size(), 32u);
}

// IDs are drawn a few dozen at a time: a forked child must not use the
// ones its parent drew and has not used yet.
TEST(Transport, ForkedChildDrawsIdsOfItsOwn) {
  random_query_id();  // the pool full, but for one
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  pid_t pid = fork();
  if (pid == 0) {
    uint16_t ids[8];
    for (uint16_t& id : ids) id = random_query_id();
    _exit(write(p[1], ids, sizeof ids) == sizeof ids ? 0 : 1);
  }
  uint16_t child[8], parent[8];
  ASSERT_EQ(read(p[0], child, sizeof child), ssize_t(sizeof child));
  waitpid(pid, nullptr, 0);
  for (uint16_t& id : parent) id = random_query_id();
  EXPECT_NE(memcmp(child, parent, sizeof child), 0);
  close(p[0]);
  close(p[1]);
}

}  // namespace
