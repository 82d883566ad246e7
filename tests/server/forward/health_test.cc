// SPDX-License-Identifier: Apache-2.0
// One upstream's health (server/forward/health.h), step by step on a
// clock of the table's: a failed query only asks for a probe, at most one
// in flight and none within 500 ms of the last; two probes unanswered in a
// row mark it down; any reply brings it back.
#include "server/forward/health.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rk8s::server {
namespace {

enum class Event { failed, answered, unanswered, unsent, reply };

struct Step {
  unsigned at_ms;
  Event event;
  const char* want;  // failed: "probe" or "-"; else the change: "down", "up" or "-"
  bool down;         // down() after the step
};

struct HealthCase {
  const char* rule;
  std::vector<Step> steps;
};

const char* change_text(Health::Change c) {
  return c == Health::Change::down ? "down" : c == Health::Change::up ? "up" : "-";
}

TEST(Health, Steps) {
  using E = Event;
  const HealthCase cases[] = {
      {"a failed query asks for a probe; its answer changes nothing",
       {{0, E::failed, "probe", false}, {10, E::answered, "-", false}}},
      {"one probe in flight: failures meanwhile ask for none",
       {{0, E::failed, "probe", false}, {5, E::failed, "-", false}, {900, E::failed, "-", false},
        {910, E::answered, "-", false}}},
      {"none within 500 ms of the last one's end",
       {{0, E::failed, "probe", false}, {10, E::answered, "-", false}, {509, E::failed, "-", false},
        {510, E::failed, "probe", false}}},
      {"names that time out while the probes are answered: never down",
       {{0, E::failed, "probe", false}, {10, E::answered, "-", false}, {600, E::failed, "probe", false},
        {610, E::answered, "-", false}, {1200, E::failed, "probe", false}, {1210, E::answered, "-", false}}},
      {"two probes unanswered in a row: down, said once; the first answer brings it back",
       {{0, E::failed, "probe", false}, {1000, E::unanswered, "-", false}, {1600, E::failed, "-", false},
        {2500, E::unanswered, "down", true}, {4000, E::unanswered, "-", true},
        {4600, E::answered, "up", false}, {4700, E::failed, "-", false}, {5100, E::failed, "probe", false}}},
      {"an answered probe starts the count over",
       {{0, E::failed, "probe", false}, {1000, E::unanswered, "-", false}, {1600, E::answered, "-", false},
        {2100, E::failed, "probe", false}, {3100, E::unanswered, "-", false}}},
      {"a probe that could not be sent counts for nothing",
       {{0, E::failed, "probe", false}, {1, E::unsent, "-", false}, {600, E::unsent, "-", false},
        {1600, E::unanswered, "-", false}, {2200, E::unsent, "-", false}, {3200, E::unanswered, "down", true}}},
      {"a query's reply brings a down upstream back; the next probe unanswered, down again",
       {{0, E::failed, "probe", false}, {1000, E::unanswered, "-", false}, {2500, E::unanswered, "down", true},
        {2600, E::reply, "up", false}, {2700, E::reply, "-", false}, {4000, E::unanswered, "down", true}}},
      {"replies alone change nothing", {{0, E::reply, "-", false}, {1, E::reply, "-", false}}},
  };
  for (const HealthCase& c : cases) {
    Health health;
    const Health::Clock::time_point t0 = Health::Clock::now();
    for (const Step& s : c.steps) {
      Health::Clock::time_point at = t0 + std::chrono::milliseconds(s.at_ms);
      std::string got;
      switch (s.event) {
        case E::failed: got = health.want_probe(at) ? "probe" : "-"; break;
        case E::answered: got = change_text(health.probed(Health::Probe::answered, at)); break;
        case E::unanswered: got = change_text(health.probed(Health::Probe::unanswered, at)); break;
        case E::unsent: got = change_text(health.probed(Health::Probe::unsent, at)); break;
        case E::reply: got = change_text(health.answered()); break;
      }
      EXPECT_EQ(got, s.want) << c.rule << ", at " << s.at_ms << " ms";
      EXPECT_EQ(health.down(), s.down) << c.rule << ", at " << s.at_ms << " ms";
    }
  }
}

}  // namespace
}  // namespace rk8s::server
