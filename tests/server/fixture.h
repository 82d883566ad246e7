// The shared fixtures (tests/fixtures/) loaded once, and records as text
// so tables can say what an answer must hold.
#pragma once

#include <arpa/inet.h>

#include <string>
#include <vector>

#include "server/data/load.h"
#include "server/data/resolution.h"

namespace rk8s::server::test {

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
inline std::vector<std::string> records_text(const std::vector<RrRef>& records) {
  std::vector<std::string> out;
  for (const RrRef& r : records) out.push_back(name_text(r.owner) + " " + rdata_text(*r.rr));
  return out;
}

}  // namespace rk8s::server::test
