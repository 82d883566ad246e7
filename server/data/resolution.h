// One name, one type, against the store: CNAME chains followed within the
// server's data, wildcards (RFC 4592), NXDOMAIN vs NODATA, and the zone's
// SOA for negative answers. Closed world: a name under no zone is NXDOMAIN.
#pragma once

#include <optional>
#include <vector>

#include "server/data/store.h"

namespace rk8s::server {

struct RrRef {
  Name owner;  // the query name for a wildcard match
  const Rr* rr = nullptr;
};

struct Resolution {
  uint8_t rcode = dns::kNoError;
  bool authoritative = false;
  bool has_data = false;        // records of the type at the end of the chain
  std::vector<RrRef> records;   // the CNAME chain, then the data
  std::optional<RrRef> soa;     // negative answers inside a zone

  bool exists() const { return rcode == dns::kNoError; }
  // The lowest TTL of the records; UINT32_MAX when there are none.
  uint32_t min_ttl() const;
  // RFC 2308 negative TTL from the SOA; UINT32_MAX when there is no SOA.
  uint32_t negative_ttl() const;
};

Resolution store_lookup(const Store& store, const Name& name, uint16_t type);

}  // namespace rk8s::server
