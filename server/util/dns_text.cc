// SPDX-License-Identifier: Apache-2.0
#include "server/util/dns_text.h"

#include "libresolv-k8s/dns/wire.h"
#include "server/util/strings.h"

namespace rk8s::server {

std::string name_text(const Name& name) {
  char buf[dns::kMaxNameText];
  dns::name_to_text(name, buf, sizeof buf, /*final_dot=*/true);
  return buf;
}

bool parse_name(std::string_view text, Name& out) { return dns::name_from_text(str(text), out); }

uint16_t type_from_text(std::string_view text) {
  if (uint16_t type = dns::type_from_name(str(text))) return type;
  unsigned long v;
  return parse_uint(text, UINT16_MAX, v) ? uint16_t(v) : 0;
}

std::string type_to_text(uint16_t type) {
  const char* name = dns::type_name(type);
  return name ? name : "TYPE" + std::to_string(type);
}

std::string rcode_to_text(uint8_t rcode) {
  const char* name = rcode <= dns::kRcodeMask ? dns::rcode_name(rcode) : nullptr;
  return name ? name : "RCODE" + std::to_string(rcode);
}

}  // namespace rk8s::server
