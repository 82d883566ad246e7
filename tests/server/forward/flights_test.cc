// SPDX-License-Identifier: Apache-2.0
// Questions in flight (server/forward/flights.h): the same question asked
// again joins the one in flight; every asker is answered on its own loop;
// the limits, and each client's share of them.
#include "server/forward/flights.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

// Flights and what their askers were told.
struct Askers {
  explicit Askers(FlightLimits limits = {}) : flights(limits) {}
  Flights flights;
  Loop loop;
  Strings answered;  // "WHO RCODE", in the order the answers came

  // "start", "join" or the refusal's name.
  std::string ask(const std::string& key, const std::string& who, uint8_t from = 1, bool may_start = true) {
    IpAddr addr = client_ip(from);
    bool start;
    Refusal r = flights.join(key, &addr, may_start, &loop,
                             [this, who](const Resolution* res) {
                               answered.push_back(who + " " + rcode_to_text(res->rcode));
                             },
                             start);
    return r != Refusal::none ? refusal_name(r) : start ? "start" : "join";
  }
  // What the loop was handed so far, run; then the loop ends.
  void run_posted() {
    loop.stop();
    loop.run();
  }
};

Resolution with_rcode(uint8_t rcode) {
  Resolution res;
  res.rcode = rcode;
  return res;
}

TEST(Flights, TheSameQuestionJoinsTheOneInFlight) {
  Askers a;
  EXPECT_EQ(a.ask("www A", "first"), "start");
  EXPECT_EQ(a.ask("www A", "second"), "join");
  EXPECT_EQ(a.ask("www AAAA", "other"), "start");
  EXPECT_EQ(a.flights.counts().questions, 2u);
  EXPECT_EQ(a.flights.counts().waiting, 3u);

  a.flights.land("www A", with_rcode(dns::kNxDomain));
  EXPECT_EQ(a.flights.counts().questions, 1u);
  EXPECT_EQ(a.flights.counts().waiting, 1u);
  EXPECT_TRUE(a.answered.empty()) << "answered here, not on the loop";
  a.run_posted();
  EXPECT_EQ(a.answered, (Strings{"first NXDOMAIN", "second NXDOMAIN"}));

  // Landed: the next asker sends it again.
  EXPECT_EQ(a.ask("www A", "again"), "start");
  a.flights.land("www AAAA", with_rcode(dns::kNoError));
  a.run_posted();
  EXPECT_EQ(a.answered, (Strings{"first NXDOMAIN", "second NXDOMAIN", "other NOERROR"}));
}

TEST(Flights, EachAskerIsAnsweredOnItsOwnLoop) {
  Flights flights(FlightLimits{});
  Loop one, two;
  Strings answered;
  IpAddr addr = client_ip(1);
  bool start;
  for (auto [loop, who] : {std::pair{&one, "one"}, std::pair{&two, "two"}})
    flights.join("q", &addr, true, loop,
                 [&answered, who = std::string(who)](const Resolution* res) {
                   answered.push_back(who + " " + rcode_to_text(res->rcode));
                 },
                 start);
  flights.land("q", with_rcode(dns::kServFail));
  two.stop(), two.run();
  EXPECT_EQ(answered, Strings{"two SERVFAIL"});
  one.stop(), one.run();
  EXPECT_EQ(answered, (Strings{"two SERVFAIL", "one SERVFAIL"}));
}

// A big answer is not copied for each of its askers.
TEST(Flights, EveryAskerIsGivenTheOneCopy) {
  Flights flights(FlightLimits{});
  Loop loop;
  IpAddr addr = client_ip(1);
  std::vector<const Resolution*> given;
  bool start;
  for (int i = 0; i < 3; i++)
    flights.join("q", &addr, true, &loop, [&given](const Resolution* res) { given.push_back(res); }, start);
  flights.land("q", with_rcode(dns::kNoError));
  loop.stop(), loop.run();
  ASSERT_EQ(given.size(), 3u);
  EXPECT_EQ(given[0], given[1]);
  EXPECT_EQ(given[0], given[2]);
}

TEST(Flights, LandingWhatIsNotInFlightDoesNothing) {
  Askers a;
  a.ask("a", "a");
  a.flights.land("b", with_rcode(dns::kNoError));
  a.run_posted();
  EXPECT_TRUE(a.answered.empty());
  EXPECT_EQ(a.flights.counts().questions, 1u);
}

// Each limit, met by the asker after those before it; every refusal leaves
// the counts as they were.
TEST(Flights, Limits) {
  struct Ask {
    const char* key;
    uint8_t from;
    bool may_start;
    const char* want;
  };
  const struct {
    const char* rule;
    FlightLimits limits;
    std::vector<Ask> asks;
  } cases[] = {
      {"maxJoined: askers of one question",
       {100, 100, 2},
       {{"q", 1, true, "start"}, {"q", 2, true, "join"}, {"q", 3, true, "maxJoined"}, {"r", 3, true, "start"}}},
      {"maxPending: askers in all",
       {100, 3, 100},
       {{"a", 1, true, "start"}, {"b", 2, true, "start"}, {"c", 3, true, "start"}, {"a", 4, true, "maxPending"}}},
      {"maxConcurrent: questions, not askers",
       {2, 100, 100},
       {{"a", 1, true, "start"}, {"b", 2, true, "start"}, {"c", 3, true, "maxConcurrent"},
        {"a", 3, true, "join"}}},
      {"a query whose budget is spent joins but starts nothing",
       {100, 100, 100},
       {{"a", 1, true, "start"}, {"a", 2, false, "join"}, {"b", 2, false, "maxUpstreamPerQuery"}}},
      {"one client alone holds half the askers",
       {100, 8, 100},
       {{"a", 1, true, "start"}, {"b", 1, true, "start"}, {"c", 1, true, "start"}, {"d", 1, true, "start"},
        {"e", 1, true, "share"}, {"a", 1, true, "share"}, {"e", 2, true, "start"}}},
      {"one client alone starts half the questions",
       {4, 100, 100},
       {{"a", 1, true, "start"}, {"b", 1, true, "start"}, {"c", 1, true, "share"}, {"a", 1, true, "join"},
        {"c", 2, true, "start"}}},
      {"a client holding some leaves the last share's worth: a third and a fourth find room",
       {100, 12, 100},
       {{"a", 1, true, "start"}, {"b", 1, true, "start"}, {"c", 1, true, "start"}, {"d", 1, true, "start"},
        {"e", 1, true, "start"}, {"f", 1, true, "start"}, {"g", 1, true, "share"},
        {"h", 2, true, "start"}, {"i", 2, true, "start"}, {"j", 2, true, "share"},
        {"l", 3, true, "start"}, {"m", 3, true, "share"}, {"n", 4, true, "start"}}},
  };
  for (const auto& c : cases) {
    Askers a(c.limits);
    for (const Ask& ask : c.asks) {
      Flights::Counts before = a.flights.counts();
      std::string got = a.ask(ask.key, std::string(ask.key) + std::to_string(ask.from), ask.from, ask.may_start);
      EXPECT_EQ(got, ask.want) << c.rule << ": " << ask.key << " from " << int(ask.from);
      if (got != "start" && got != "join") {
        Flights::Counts after = a.flights.counts();
        EXPECT_EQ(after.waiting, before.waiting) << c.rule;
        EXPECT_EQ(after.questions, before.questions) << c.rule;
      }
    }
  }
}

// Landing gives the counts back, to the client that held them.
TEST(Flights, LandingReleasesTheClientsShare) {
  Askers a(FlightLimits{100, 4, 100});
  EXPECT_EQ(a.ask("a", "a", 1), "start");
  EXPECT_EQ(a.ask("b", "b", 1), "start");
  EXPECT_EQ(a.ask("c", "c", 1), "share");
  EXPECT_EQ(a.flights.counts().clients, 1u);
  a.flights.land("a", with_rcode(dns::kNoError));
  EXPECT_EQ(a.ask("c", "c", 1), "start");
  a.flights.land("b", with_rcode(dns::kNoError));
  a.flights.land("c", with_rcode(dns::kNoError));
  Flights::Counts c = a.flights.counts();
  EXPECT_EQ(c.waiting, 0u);
  EXPECT_EQ(c.questions, 0u);
  EXPECT_EQ(c.clients, 0u);
}

// The server's own questions (prefetches): no client, never joining
// another, bound by a tenth of maxConcurrent of their own beside the
// clients' questions: neither takes the other's room.
TEST(Flights, TheServersOwnQuestionsHaveABoundOfTheirOwn) {
  Askers a(FlightLimits{10, 100, 100});
  auto own = [&a](const std::string& key) -> std::string {
    bool start;
    Refusal r = a.flights.join(key, nullptr, true, &a.loop, [](const Resolution*) {}, start);
    return r != Refusal::none ? refusal_name(r) : start ? "start" : "join";
  };
  for (uint8_t i = 1; i <= 10; i++) EXPECT_EQ(a.ask("c" + std::to_string(i), "client", i), "start");
  EXPECT_EQ(a.ask("c11", "client", 11), "maxConcurrent");
  EXPECT_EQ(own("p"), "start") << "the clients' questions at their bound";
  EXPECT_EQ(own("p"), "maxJoined") << "never joins";
  EXPECT_EQ(own("c1"), "maxJoined") << "nor a client's";
  EXPECT_EQ(own("r"), "maxConcurrent") << "its own bound: a tenth of 10";
  EXPECT_EQ(a.ask("p", "client", 1), "join");
  Flights::Counts c = a.flights.counts();
  EXPECT_EQ(c.questions, 10u);
  EXPECT_EQ(c.refreshes, 1u);
  EXPECT_EQ(c.waiting, 11u);

  a.flights.land("c1", with_rcode(dns::kNoError));
  a.flights.land("p", with_rcode(dns::kNoError));
  EXPECT_EQ(a.flights.counts().refreshes, 0u);
  EXPECT_EQ(a.ask("c12", "client", 12), "start") << "a refresh landing gives the clients nothing";
  EXPECT_EQ(a.ask("c13", "client", 13), "maxConcurrent");
  EXPECT_EQ(own("r"), "start");
}

}  // namespace
}  // namespace rk8s::server::test
