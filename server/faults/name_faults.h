// SPDX-License-Identifier: Apache-2.0
// Faults placed at chosen names for the client's tests: answer with a
// fixed rcode (--rcode NAME[/TYPE]=RCODE) or never answer (--drop NAME[/TYPE]).
// A closed world's answers go through them (faulty_source.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/model/resolution.h"

namespace rk8s::server {

struct Fault {
  bool drop = false;
  uint8_t rcode = 0;  // when not dropping
};

class NameFaults {
 public:
  // "name[/TYPE]=RCODE" for --rcode, "name[/TYPE]" for --drop. False on bad syntax.
  bool add_rcode(std::string_view spec);
  bool add_drop(std::string_view spec);
  std::optional<Fault> find(const Name& name, uint16_t type) const;
  bool empty() const { return by_key_.empty(); }

 private:
  bool add(std::string_view target, Fault fault);

  std::unordered_map<std::string, Fault> by_key_;  // name key + "/" + type (0 = any)
};

}  // namespace rk8s::server
