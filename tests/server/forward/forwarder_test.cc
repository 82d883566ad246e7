// SPDX-License-Identifier: Apache-2.0
// The forwarder (server/forward/forwarder.h) as a waiting query sees it:
// the bytes charged to its client while it waits and given back when it is
// answered, its clientTimeout timer ended by the answer, the stale answer
// given from the cache's entry itself, and a query the memory budget turns
// away answered at once, against a loopback upstream.
#include "server/forward/forwarder.h"

#include <event2/event.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server/forward/metrics.h"
#include "tests/server/fixture.h"
#include "tests/server/loopback.h"
#include "tests/server/prometheus_text.h"

namespace rk8s::server::test {
namespace {

// An upstream that answers every query NOERROR, `delay_ms` late.
Responder::Respond late(unsigned delay_ms) {
  return [delay_ms](const Message& q) {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    return std::vector<Message>{reply_to(q)};
  };
}

// A forwarder to `upstream` through a cache that holds flip.test A expired
// a second ago (when `stale`), `budget` bytes for what waits, on a loop the
// test runs; RFC 8020's answers below `below_nxdomain`.
struct Forwarding {
  Forwarding(const Upstream& upstream, size_t budget, unsigned client_timeout_ms, bool stale = true,
             std::optional<Name> below_nxdomain = std::nullopt)
      : held(budget) {
    caps.stale.client_timeout_ms = client_timeout_ms;
    ForwardConfig config;
    config.upstreams = {upstream};
    auto upstreams = std::make_shared<Upstreams>(config, metrics, ignore_warnings);
    forwarder =
        std::make_unique<Forwarder>(upstreams, ForwardShared{cache, caps, flights, held, metrics, ignore_warnings,
                                                             below_nxdomain});
    auto answer = std::make_shared<CachedAnswer>();
    answer->add(N("flip.test"), Rr{dns::kTypeA, 1, {10, 9, 0, 1}}, dns::kAnswer);
    entry = answer;
    if (stale)
      cache.insert(cache_key(Ask{N("flip.test"), dns::kTypeA}), entry, 1, Cache::Clock::now() - std::chrono::seconds(2));
  }

  // Asks `name` A for `from` on the loop: "waits", or what it was answered
  // at once.
  std::string ask(uint8_t from, const char* name = "flip.test", uint16_t type = dns::kTypeA) {
    size_t before = given.size();
    Ask a{N(name), type, false, false, std::make_shared<QueryScope>(QueryScope{client_ip(from), 16, 0})};
    forwarder->resolve(a, [this](const Resolution* res) {
      given.push_back(rcode_to_text(res->rcode) + (res->stale ? " stale" : "") +
                      (res->stale && res->keep.get() == entry.get() ? " from the entry" : ""));
    });
    return given.size() > before ? "at once: " + given.back() : "waits";
  }
  // Runs `fn` on the loop, then the loop until `done` (kWaitMs at most).
  void run(std::function<void()> fn, std::function<bool()> done) {
    loop.post([this, fn, done] {
      fn();
      check(done, 0);
    });
    loop.run();
  }
  void check(std::function<bool()> done, int waited_ms) {
    if (done() || waited_ms >= kWaitMs) return loop.stop();
    loop.after(5, [this, done, waited_ms] { check(done, waited_ms + 5); });
  }
  int timers() { return event_base_get_num_events(loop.base(), EVENT_BASE_COUNT_ADDED); }

  Cache cache{64, 1 << 20, 3600};
  Flights flights{FlightLimits{}};
  HeldBytes held;
  ForwardMetrics metrics;
  CacheConfig caps;
  std::shared_ptr<const CachedAnswer> entry;
  std::unique_ptr<Forwarder> forwarder;
  Loop loop;
  Strings given;
};

// The attack of issue 43: each query waited with a timer of clientTimeout
// that outlived its answer, holding the query until it fired.
TEST(Forwarder, TheAnswerEndsTheTimerAndGivesTheBytesBack) {
  Responder upstream(late(0));
  Forwarding f(upstream.upstream(), 1 << 20, 10 * kWaitMs);
  int idle = f.timers();
  size_t held_waiting = 0;
  int timers_waiting = 0;
  f.run(
      [&] {
        EXPECT_EQ(f.ask(1), "waits");
        held_waiting = f.held.used();
        timers_waiting = f.timers();
      },
      [&] { return !f.given.empty(); });
  EXPECT_EQ(held_waiting, Forwarder::kWaitingBytes) << "charged while it waits";
  EXPECT_GT(timers_waiting, idle) << "a timer and the exchange's socket";
  EXPECT_EQ(f.given, Strings{"NOERROR"});
  EXPECT_EQ(f.held.used(), 0u) << "given back with the answer";
  EXPECT_EQ(f.timers(), idle + 0) << "the timer ended with the answer, not at clientTimeout";
}

// Past clientTimeout, each asker of the question is answered from the
// cache's entry itself, and lets go of what it held while the question
// goes on.
TEST(Forwarder, StaleFromTheEntryAndNothingHeldWhileTheQuestionGoesOn) {
  Responder upstream(late(300));
  Forwarding f(upstream.upstream(), 1 << 20, 1);
  f.run(
      [&] {
        EXPECT_EQ(f.ask(1), "waits");
        EXPECT_EQ(f.ask(2), "waits") << "joined";
        EXPECT_EQ(f.held.used(), 2 * Forwarder::kWaitingBytes);
      },
      [&] { return f.given.size() == 2; });
  EXPECT_EQ(f.given, (Strings{"NOERROR stale from the entry", "NOERROR stale from the entry"}));
  EXPECT_EQ(f.flights.counts().waiting, 2u) << "the question still in flight";
  EXPECT_EQ(f.held.used(), 0u);
  f.run([] {}, [&] { return f.flights.counts().questions == 0; });
  EXPECT_EQ(f.given.size(), 2u) << "answered once";
  EXPECT_EQ(lines_starting(f.metrics.render(), "resolv_k8s_cache_served_stale_total{reason=\"timeout\"}"),
            Strings{"resolv_k8s_cache_served_stale_total{reason=\"timeout\"} 2"});
}

// autopath.rfc8020Cut: a fresh NXDOMAIN cached for a name between a
// question and the cluster domain answers it at once; nothing else does.
TEST(Forwarder, AnNxdomainCachedAboveAnswersBelowIt) {
  const struct {
    const char* rule;
    const char* name;
    bool cut;  // autopath.rfc8020Cut with cluster.local
    const char* want;
  } cases[] = {
      {"a name below it", "api.example.net.svc.cluster.local", true, "at once: NXDOMAIN"},
      {"right below it", "example.net.svc.cluster.local", true, "at once: NXDOMAIN"},
      {"the cut off", "api.example.net.svc.cluster.local", false, "waits"},
      {"a sibling", "api.example.org.svc.cluster.local", true, "waits"},
      {"below an expired one", "api.gone.svc.cluster.local", true, "waits"},
      {"the cluster domain's own NXDOMAIN cuts nothing", "x.cluster.local", true, "waits"},
      {"one label below a Service's: none", "_http._tcp.web.prod.svc.cluster.local", true, "waits"},
      {"outside the cluster domain", "www.example", true, "waits"},
  };
  auto nxdomain = std::make_shared<CachedAnswer>();
  nxdomain->rcode = dns::kNxDomain;
  Cache::Clock::time_point now = Cache::Clock::now();
  for (const auto& c : cases) {
    Responder upstream(late(50));
    Forwarding f(upstream.upstream(), 1 << 20, 10 * kWaitMs, false,
                 c.cut ? std::optional<Name>(N("cluster.local")) : std::nullopt);
    for (const char* above : {"net.svc.cluster.local", "cluster.local", "example", "_tcp.web.prod.svc.cluster.local"})
      f.cache.insert(CacheKey{name_key(N(above)), 0}, nxdomain, 5, now);
    f.cache.insert(CacheKey{name_key(N("gone.svc.cluster.local")), 0}, nxdomain, 5, now - std::chrono::seconds(6));
    std::string got;
    f.run([&] { got = f.ask(1, c.name); }, [&] { return !f.given.empty(); });
    EXPECT_EQ(got, c.want) << c.rule;
    std::string counted = c.want == std::string("waits") ? "0" : "1";
    EXPECT_EQ(lines_starting(f.metrics.render(), "resolv_k8s_cache_below_nxdomain_total"),
              Strings{"resolv_k8s_cache_below_nxdomain_total " + counted}) << c.rule;
  }
}

// An upstream that says NXDOMAIN for AAAA (with an SOA of TTL 30, so that
// it is cached) and NOERROR for any other type.
Responder::Respond nxdomain_for_aaaa() {
  return [](const Message& q) {
    size_t at = 12;
    while (at < q.size() && q[at]) at += 1 + q[at];
    if (at + 2 >= q.size() || q[at + 1] != 0 || q[at + 2] != dns::kTypeAAAA) return std::vector<Message>{reply_to(q)};
    Message r = reply_to(q, dns::kNxDomain);
    r[9] = 1;  // NSCOUNT: the SOA, owned by the question's name, root names, every number 30
    Message soa = {0xc0, 12, 0, dns::kTypeSOA, 0, 1, 0, 0, 0, 30, 0, 22, 0, 0};
    for (int i = 0; i < 5; i++) soa.insert(soa.end(), {0, 0, 0, 30});
    r.insert(r.begin() + long(at) + 5, soa.begin(), soa.end());  // after the question, before any OPT
    return std::vector<Message>{r};
  };
}

// An NXDOMAIN for one type answers the other types only where CoreDNS
// keeps it for all of them (server/util/coredns_names.h): an upstream may
// say NXDOMAIN for the AAAA of a name with A records (RFC 4074 4.2), or,
// as CoreDNS in in-addr.arpa, for the A of a name whose PTR it has.
TEST(Forwarder, AnNxdomainForOneTypeAnswersOthersOnlyWhereItHolds) {
  const struct {
    const char* rule;
    const char* name;
    bool cut;          // autopath.rfc8020Cut with cluster.local
    const char* want;  // A, once AAAA was NXDOMAIN
  } cases[] = {
      {"a GSLB's AAAA", "www.example.com", true, "NOERROR"},
      {"a reverse name", "1.0.96.10.in-addr.arpa", true, "NOERROR"},
      {"the cluster's name, the cut off", "web.prod.svc.cluster.local", false, "NOERROR"},
      {"one label below a Service", "_tcp.web.prod.svc.cluster.local", true, "NOERROR"},
      {"a Service, the cut on: at once", "web.prod.svc.cluster.local", true, "at once: NXDOMAIN"},
  };
  for (const auto& c : cases) {
    Responder upstream(nxdomain_for_aaaa());
    Forwarding f(upstream.upstream(), 1 << 20, 10 * kWaitMs, false,
                 c.cut ? std::optional<Name>(N("cluster.local")) : std::nullopt);
    f.run([&] { f.ask(1, c.name, dns::kTypeAAAA); }, [&] { return f.given.size() == 1; });
    ASSERT_EQ(f.given, Strings{"NXDOMAIN"}) << c.rule;
    std::string got;
    f.run([&] { got = f.ask(2, c.name); }, [&] { return f.given.size() == 2; });
    EXPECT_EQ(got == "waits" ? f.given.back() : got, c.want) << c.rule;
  }
}

// Asks made one after another on the loop, before any answer comes: each
// waits, or is answered at once when its bytes are past the budget or its
// client's share of it.
TEST(Forwarder, TheMemoryBudgetAnswersAtOnce) {
  const size_t k = Forwarder::kWaitingBytes;
  struct Asked {
    uint8_t from;
    const char* want;
  };
  const struct {
    const char* rule;
    size_t budget;
    bool stale;
    std::vector<Asked> asks;
  } cases[] = {
      {"no room: the stale entry at once", 0, true, {{1, "at once: NOERROR stale from the entry"}}},
      {"no room and nothing cached: SERVFAIL at once", 0, false, {{1, "at once: SERVFAIL"}}},
      {"alone, half the budget; another client finds room",
       3 * k,
       true,
       {{1, "waits"}, {1, "at once: NOERROR stale from the entry"}, {2, "waits"}}},
      {"shares fall as clients come: a fourth's is less than a query",
       4 * k,
       false,
       {{1, "waits"}, {2, "waits"}, {3, "waits"}, {4, "at once: SERVFAIL"}}},
  };
  for (const auto& c : cases) {
    Responder upstream(late(50));
    Forwarding f(upstream.upstream(), c.budget, 10 * kWaitMs, c.stale);
    Strings got, want;
    size_t waiting = 0;
    for (const Asked& a : c.asks) waiting += std::string(a.want) == "waits";
    f.run(
        [&] {
          for (const Asked& a : c.asks) {
            got.push_back(f.ask(a.from));
            want.push_back(a.want);
          }
        },
        [&] { return f.given.size() == c.asks.size(); });
    EXPECT_EQ(got, want) << c.rule;
    EXPECT_EQ(upstream.queries().size(), waiting ? 1u : 0u) << c.rule << ": asked upstream once, or not at all";
    EXPECT_EQ(lines_starting(f.metrics.render(), "resolv_k8s_forward_limited_total{limit=\"memory\"}"),
              Strings{"resolv_k8s_forward_limited_total{limit=\"memory\"} " +
                      std::to_string(c.asks.size() - waiting)})
        << c.rule;
    EXPECT_EQ(f.held.used(), 0u) << c.rule;
  }
}

}  // namespace
}  // namespace rk8s::server::test
