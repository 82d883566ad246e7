// SPDX-License-Identifier: Apache-2.0
// Questions in flight (server/forward/flights.h): the same question asked
// again joins the one in flight; every asker is answered on its own loop.
#include "server/forward/flights.h"

#include <gtest/gtest.h>

#include "tests/server/fixture.h"

namespace rk8s::server::test {
namespace {

struct Askers {
  Strings answered;  // "WHO RCODE", in the order the answers came
  Resolved asker(const std::string& who) {
    return [this, who](const Resolution* res) { answered.push_back(who + " " + rcode_to_text(res->rcode)); };
  }
};

// What `loop` was handed so far, run; then the loop ends.
void run_posted(Loop& loop) {
  loop.stop();
  loop.run();
}

Resolution with_rcode(uint8_t rcode) {
  Resolution res;
  res.rcode = rcode;
  return res;
}

TEST(Flights, TheSameQuestionJoinsTheOneInFlight) {
  Flights flights;
  Loop loop;
  Askers askers;
  EXPECT_TRUE(flights.join("www A", &loop, askers.asker("first")));
  EXPECT_FALSE(flights.join("www A", &loop, askers.asker("second")));
  EXPECT_TRUE(flights.join("www AAAA", &loop, askers.asker("other")));
  EXPECT_EQ(flights.in_flight(), 2u);

  flights.land("www A", with_rcode(dns::kNxDomain));
  EXPECT_EQ(flights.in_flight(), 1u);
  EXPECT_TRUE(askers.answered.empty()) << "answered here, not on the loop";
  run_posted(loop);
  EXPECT_EQ(askers.answered, (Strings{"first NXDOMAIN", "second NXDOMAIN"}));

  // Landed: the next asker sends it again.
  EXPECT_TRUE(flights.join("www A", &loop, askers.asker("again")));
  flights.land("www AAAA", with_rcode(dns::kNoError));
  run_posted(loop);
  EXPECT_EQ(askers.answered, (Strings{"first NXDOMAIN", "second NXDOMAIN", "other NOERROR"}));
}

TEST(Flights, EachAskerIsAnsweredOnItsOwnLoop) {
  Flights flights;
  Loop one, two;
  Askers askers;
  flights.join("q", &one, askers.asker("one"));
  flights.join("q", &two, askers.asker("two"));
  flights.land("q", with_rcode(dns::kServFail));
  run_posted(two);
  EXPECT_EQ(askers.answered, Strings{"two SERVFAIL"});
  run_posted(one);
  EXPECT_EQ(askers.answered, (Strings{"two SERVFAIL", "one SERVFAIL"}));
}

TEST(Flights, LandingWhatIsNotInFlightDoesNothing) {
  Flights flights;
  Loop loop;
  Askers askers;
  flights.join("a", &loop, askers.asker("a"));
  flights.land("b", with_rcode(dns::kNoError));
  run_posted(loop);
  EXPECT_TRUE(askers.answered.empty());
  EXPECT_EQ(flights.in_flight(), 1u);
}

}  // namespace
}  // namespace rk8s::server::test
