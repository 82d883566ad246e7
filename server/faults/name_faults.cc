// SPDX-License-Identifier: Apache-2.0
#include "server/faults/name_faults.h"

#include "server/util/dns_text.h"
#include "server/util/strings.h"

namespace rk8s::server {

namespace {

std::string fault_key(const Name& name, uint16_t type) {
  return name_key(name) + "/" + std::to_string(type);
}

}  // namespace

bool NameFaults::add(std::string_view target, Fault fault) {
  size_t slash = target.rfind('/');
  uint16_t type = 0;
  if (slash != std::string_view::npos) {
    type = type_from_text(target.substr(slash + 1));
    if (!type) return false;
    target = target.substr(0, slash);
  }
  Name name;
  if (!parse_name(target, name)) return false;
  by_key_[fault_key(name, type)] = fault;
  return true;
}

bool NameFaults::add_rcode(std::string_view spec) {
  size_t eq = spec.rfind('=');
  if (eq == std::string_view::npos) return false;
  // NOERROR ... REFUSED: BADVERS would need the query's OPT record.
  int rcode = dns::rcode_from_name(str(spec.substr(eq + 1)));
  if (rcode < 0 || rcode > dns::kRefused) return false;
  return add(spec.substr(0, eq), Fault{false, uint8_t(rcode)});
}

bool NameFaults::add_drop(std::string_view spec) { return add(spec, Fault{true, 0}); }

std::optional<Fault> NameFaults::find(const Name& name, uint16_t type) const {
  for (uint16_t t : {type, uint16_t(0)}) {
    auto it = by_key_.find(fault_key(name, t));
    if (it != by_key_.end()) return it->second;
  }
  return std::nullopt;
}

}  // namespace rk8s::server
