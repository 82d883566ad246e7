// SPDX-License-Identifier: Apache-2.0
// One query to one upstream (server/forward/exchange.h): what counts as the
// reply, and exchange() over UDP and TCP against a responder on 127.0.0.1.
#include "server/forward/exchange.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>

#include "server/forward/query.h"
#include "tests/server/fixture.h"
#include "tests/server/loopback.h"

namespace rk8s::server::test {
namespace {

Bytes bytes(const Message& m) { return Bytes{m.data(), m.size()}; }

struct MatchCase {
  const char* rule;
  Message reply;
  bool answers;
};

TEST(AnswersQuery, TheIdQrAndTheSameQuestion) {
  const Message q = query_for("www.example.com");
  const Message r = reply_to(q);
  Message other_class = r;
  other_class[r.size() - 1] = 3;  // CH
  Message no_question = r;
  no_question[5] = 0;
  Message two_questions = r;
  two_questions[5] = 2;
  const MatchCase cases[] = {
      {"the reply", r, true},
      {"any rcode", reply_to(q, dns::kServFail), true},
      {"the name in another case", reply_to(query_for("WWW.Example.COM")), true},
      {"the query itself: QR clear", q, false},
      {"another ID", with_id(r, 0x1235), false},
      {"another name", reply_to(query_for("www.example.org")), false},
      {"another type", reply_to(query_for("www.example.com", dns::kTypeAAAA)), false},
      {"another class", other_class, false},
      {"no question", no_question, false},
      {"two questions", two_questions, false},
      {"cut in the question", Message(r.begin(), r.begin() + 20), false},
      {"cut in the header", Message(r.begin(), r.begin() + 6), false},
  };
  for (const MatchCase& c : cases) EXPECT_EQ(answers_query(bytes(q), bytes(c.reply)), c.answers) << c.rule;
}

// One exchange() on a loop of its own (so a TCP connection of its own),
// to its end.
ExchangeResult exchange_once(const Upstream& to, bool tcp, const Message& query, unsigned timeout_ms) {
  LoopThread thread;
  std::promise<ExchangeResult> result;
  thread.loop().post([&] {
    exchange(thread.loop(), to, tcp, query, timeout_ms, QueryOwner{}, [&](ExchangeResult& r) { result.set_value(r); });
  });
  return result.get_future().get();
}

const char* status_text(ExchangeResult::Status s) {
  return s == ExchangeResult::ok ? "ok" : s == ExchangeResult::timeout ? "timeout" : "error";
}

struct ExchangeCase {
  const char* rule;
  std::function<std::vector<Message>(const Message& query)> respond;
  unsigned timeout_ms;
  const char* status;
};

// Over UDP and TCP alike: the reply that answers the query, whatever
// else comes first; else the timeout.
TEST(Exchange, TheReplyOrTheTimeoutOverUdpAndTcp) {
  const ExchangeCase cases[] = {
      {"the reply", [](const Message& q) { return std::vector<Message>{reply_to(q)}; }, kWaitMs, "ok"},
      {"a wrong ID first, ignored",
       [](const Message& q) {
         return std::vector<Message>{with_id(reply_to(q), uint16_t(id_of(q) + 1)), reply_to(q)};
       },
       kWaitMs, "ok"},
      {"another question first, ignored",
       [](const Message& q) {
         Message other = query_for("other.example", dns::kTypeA, id_of(q));
         return std::vector<Message>{reply_to(other), reply_to(q)};
       },
       kWaitMs, "ok"},
      {"only a wrong ID: the timeout",
       [](const Message& q) {
         return std::vector<Message>{with_id(reply_to(q), uint16_t(id_of(q) + 1))};
       },
       200, "timeout"},
      {"silence: the timeout", [](const Message&) { return std::vector<Message>{}; }, 200, "timeout"},
  };
  for (bool tcp : {false, true})
    for (const ExchangeCase& c : cases) {
      Responder upstream(c.respond);
      const Message q = query_for("www.example.com", dns::kTypeA, 0x4242);
      ExchangeResult r = exchange_once(upstream.upstream(), tcp, q, c.timeout_ms);
      std::string rule = std::string(tcp ? "TCP: " : "UDP: ") + c.rule;
      EXPECT_STREQ(status_text(r.status), c.status) << rule;
      if (r.status == ExchangeResult::ok) {
        EXPECT_EQ(r.reply, reply_to(q)) << rule;
      }
      EXPECT_EQ(upstream.queries(), std::vector<Message>{q}) << rule;
    }
}

TEST(Exchange, NoOneListeningIsAnError) {
  const uint16_t port = free_port();
  for (bool tcp : {false, true})
    EXPECT_STREQ(status_text(exchange_once(loopback_upstream(port), tcp, query_for("a.test"), kWaitMs).status),
                 "error")
        << (tcp ? "TCP" : "UDP");
}

// Two queries in flight on one connection, answered the other way round:
// each gets its own reply.
TEST(Exchange, TcpMatchesPipelinedRepliesByIdAndQuestion) {
  std::vector<Message> held;
  Responder upstream([&held](const Message& q) {
    held.push_back(q);
    if (held.size() < 2) return std::vector<Message>{};
    return std::vector<Message>{reply_to(held[1]), reply_to(held[0])};
  });
  const Message first = query_for("first.example", dns::kTypeA, 1);
  const Message second = query_for("second.example", dns::kTypeA, 2);
  LoopThread thread;
  std::promise<ExchangeResult> a, b;
  thread.loop().post([&] {
    exchange(thread.loop(), upstream.upstream(), true, first, kWaitMs, QueryOwner{}, [&](ExchangeResult& r) { a.set_value(r); });
    exchange(thread.loop(), upstream.upstream(), true, second, kWaitMs, QueryOwner{}, [&](ExchangeResult& r) { b.set_value(r); });
  });
  ExchangeResult ra = a.get_future().get(), rb = b.get_future().get();
  EXPECT_STREQ(status_text(ra.status), "ok");
  EXPECT_STREQ(status_text(rb.status), "ok");
  EXPECT_EQ(ra.reply, reply_to(first));
  EXPECT_EQ(rb.reply, reply_to(second));
}

// One client's queries that the upstream never answers take their share of
// the pooled slots (half, alone) and of the places to wait (as many), and
// the rest fail at once; another client's query and a health probe, sent
// after them, are answered.
TEST(Exchange, TcpSharesTheConnectionsByClient) {
  Responder upstream([](const Message& q) {
    if (std::string(q.begin(), q.end()).find("\5never") != std::string::npos) return std::vector<Message>{};
    return std::vector<Message>{reply_to(q)};
  });
  IpAddr flooder, bystander;
  ASSERT_TRUE(parse_ip("10.0.0.1", flooder));
  ASSERT_TRUE(parse_ip("10.0.0.2", bystander));
  constexpr int kFlood = 400;
  LoopThread thread;
  std::atomic<int> refused = 0, timed_out = 0;
  std::promise<void> flood_done;
  std::promise<ExchangeResult> answer, probe;
  thread.loop().post([&] {
    for (int i = 0; i < kFlood; i++)
      exchange(thread.loop(), upstream.upstream(), true, query_for(("f" + std::to_string(i) + ".never.test").c_str()), 500,
               QueryOwner{ClientKey::of(flooder)}, [&](ExchangeResult& r) {
                 (r.status == ExchangeResult::error ? refused : timed_out)++;
                 if (refused + timed_out == kFlood) flood_done.set_value();
               });
    EXPECT_EQ(refused, kFlood - 256) << "128 written and 128 waiting, the rest refused at once";
    exchange(thread.loop(), upstream.upstream(), true, query_for("www.example.com"), kWaitMs,
             QueryOwner{ClientKey::of(bystander)}, [&](ExchangeResult& r) { answer.set_value(r); });
    exchange(thread.loop(), upstream.upstream(), true, probe_query(), kWaitMs, QueryOwner{.probe = true},
             [&](ExchangeResult& r) { probe.set_value(r); });
  });
  EXPECT_STREQ(status_text(answer.get_future().get().status), "ok") << "the other client's query";
  EXPECT_STREQ(status_text(probe.get_future().get().status), "ok") << "the probe";
  ASSERT_EQ(flood_done.get_future().wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
  EXPECT_EQ(timed_out, 256);
}

}  // namespace
}  // namespace rk8s::server::test
