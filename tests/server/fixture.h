// SPDX-License-Identifier: Apache-2.0
// What the server's unit tests share (tests/server/README.md): the
// fixtures (tests/fixtures/) loaded once, records as text so tables can
// say what an answer must hold, lookup tables run against a store, and
// the message of a load that must fail.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/load_error.h"
#include "server/answer/closed_world.h"
#include "server/answer/handler.h"
#include "server/data/load.h"
#include "server/data/store_lookup.h"
#include "server/faults/faulty_source.h"
#include "server/model/resolution.h"
#include "server/util/dns_text.h"

namespace rk8s::server::test {

using Strings = std::vector<std::string>;

// 10.0.0.last: a client address, for the tests of what each client holds.
inline IpAddr client_ip(uint8_t last) {
  IpAddr a;
  a.family = AF_INET;
  a.addr[0] = 10, a.addr[3] = last;
  return a;
}

inline const Store& fixture_store() {
  static const Store store = [] {
    Store s;
    load_store("tests/fixtures/cluster.json", "cluster.local",
               {"tests/fixtures/example.com.zone", "tests/fixtures/corp.example.zone"},
               [](const std::string&) {}, s);
    return s;
  }();
  return store;
}

inline Name N(const char* text) {
  Name n;
  parse_name(text, n);
  return n;
}

// A query for NAME TYPE with `id`; `udp_size` > 0 adds an OPT record with
// that payload size and `options`.
inline std::vector<uint8_t> query_for(const char* name, uint16_t type = dns::kTypeA,
                                      uint16_t id = 0x1234, uint16_t udp_size = 0,
                                      const std::vector<dns::EdnsOption>& options = {}) {
  Name qname;
  EXPECT_TRUE(parse_name(name, qname)) << name;
  std::vector<uint8_t> q(1024);
  q.resize(dns::build_query({id, qname, type, udp_size, options.data(), options.size()}, q.data(),
                            q.size()));
  return q;
}

// The fixtures as a closed world answering every name, with `faults` in
// its way (server/faults/), more of them added as the test goes.
struct FixtureWorld {
  std::shared_ptr<NameFaults> faults;
  FaultySource world;
  Router router;
  explicit FixtureWorld(const NameFaults& some = {})
      : faults(std::make_shared<NameFaults>(some)),
        world(std::make_unique<ClosedWorld>(std::shared_ptr<const Store>(&fixture_store(), [](const Store*) {})),
              faults) {
    router.add(Name{}, &world);
  }
};

// An autopath walk over the fixtures, to its end (the closed world answers
// at once).
inline AutopathWalk walk(const NameFaults& faults, const Name& qname, uint16_t qtype,
                         const autopath::QueryOption& option) {
  FixtureWorld w(faults);
  AutopathWalk out;
  walk_candidates(w.router, Ask{qname, qtype}, option, [&](AutopathWalk& done) { out = done; });
  return out;
}

// A query answered from the fixtures: the reply bytes (empty: none sent).
inline std::vector<uint8_t> handle(const NameFaults& faults, const std::vector<uint8_t>& query,
                                   AutopathMode mode, bool tcp, QueryInfo& info) {
  FixtureWorld w(faults);
  std::vector<uint8_t> out;
  handle_query(HandlerConfig{&w.router, mode, autopath::kDefaultCode}, Bytes{query.data(), query.size()},
               QueryFrom{IpAddr{}, tcp}, [&](std::vector<uint8_t>& reply, const QueryInfo& i) {
                 out = reply;
                 info = i;
               });
  return out;
}

// "TYPE rdata" in dig's style, without owner and TTL.
inline std::string rdata_text(const Rr& rr) {
  const uint8_t* p = rr.rdata.data();
  char buf[INET6_ADDRSTRLEN];
  switch (rr.type) {
    case dns::kTypeA: return std::string("A ") + inet_ntop(AF_INET, p, buf, sizeof buf);
    case dns::kTypeAAAA: return std::string("AAAA ") + inet_ntop(AF_INET6, p, buf, sizeof buf);
    case dns::kTypeCNAME: return "CNAME " + name_text(rr_target(rr));
    case dns::kTypePTR: return "PTR " + name_text(rr_target(rr));
    case dns::kTypeNS: return "NS " + name_text(rr_target(rr));
    case dns::kTypeSOA: return "SOA " + name_text(rr_target(rr));
    case dns::kTypeSRV:
      return "SRV " + std::to_string(load16(p)) + " " + std::to_string(load16(p + 2)) + " " +
             std::to_string(load16(p + 4)) + " " + name_text(rr_target(rr));
    case dns::kTypeMX: return "MX " + std::to_string(load16(p)) + " " + name_text(rr_target(rr));
    case dns::kTypeTXT: {
      std::string out = "TXT";
      for (size_t i = 0; i < rr.rdata.size(); i += 1 + p[i])
        out += " \"" + std::string(reinterpret_cast<const char*>(p + i + 1), p[i]) + "\"";
      return out;
    }
  }
  return "TYPE" + std::to_string(rr.type);
}

// "owner TYPE rdata" for each record, in order.
inline Strings records_text(const std::vector<RrRef>& records) {
  Strings out;
  for (const RrRef& r : records) out.push_back(name_text(r.owner) + " " + rdata_text(*r.rr));
  return out;
}

// One row of a lookup table: NAME TYPE looked up in a store, and what it
// must answer: the rcode and the answer section ("owner TYPE rdata", in
// order); where given, whether it has records of the type (has_data) and
// whether it carries the zone's SOA.
struct LookupCase {
  const char* rule;  // what the row shows, printed when it fails
  const char* name;
  uint16_t type;
  uint8_t rcode;
  Strings records;
  std::optional<bool> has_data = {}, soa = {};
};

inline void expect_lookups(const Store& store, std::span<const LookupCase> cases) {
  for (const LookupCase& c : cases) {
    Resolution res = store_lookup(store, N(c.name), c.type);
    EXPECT_EQ(res.rcode, c.rcode) << c.rule;
    EXPECT_EQ(records_text(res.records), c.records) << c.rule;
    if (c.has_data) {
      EXPECT_EQ(res.has_data, *c.has_data) << c.rule;
    }
    if (c.soa) {
      EXPECT_EQ(bool(res.soa()), *c.soa) << c.rule;
    }
  }
}

// An input that must not load, and its error.
struct BadInput {
  const char* text;
  const char* error;  // "file:line: what"
};

// What `load` throws (a LoadError's "file:line: what"), or "(accepted)".
inline std::string load_error(const std::function<void()>& load) {
  try {
    load();
  } catch (const LoadError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace rk8s::server::test
