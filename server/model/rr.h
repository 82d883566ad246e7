// SPDX-License-Identifier: Apache-2.0
// One resource record as the store keeps it: rdata in uncompressed wire
// form, so the Writer can compress the names inside it when it is sent.
#pragma once

#include <cstdint>
#include <vector>

#include "server/util/names.h"

namespace rk8s::server {

struct Rr {
  uint16_t type = 0;
  uint32_t ttl = 0;
  std::vector<uint8_t> rdata;

  bool operator==(const Rr& o) const { return type == o.type && rdata == o.rdata; }
};

// Appending rdata fields.
void put16(std::vector<uint8_t>& out, uint16_t v);
void put32(std::vector<uint8_t>& out, uint32_t v);
void put_name(std::vector<uint8_t>& out, const Name& name);

// The name in a CNAME, NS, PTR, MX or SRV record; an SOA's MNAME.
Name rr_target(const Rr& rr);
// RFC 2308: the negative TTL of a zone is min(SOA TTL, SOA MINIMUM).
uint32_t soa_negative_ttl(const Rr& soa);

// Appends `rr` owned by `owner`, with `ttl`; false when it did not fit (the
// Writer is then full and the message truncated).
bool write_rr(dns::Writer& w, dns::Section section, const Name& owner, const Rr& rr, uint32_t ttl);

}  // namespace rk8s::server
