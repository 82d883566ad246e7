// SPDX-License-Identifier: Apache-2.0
#include "server/answer/schema_cut.h"

#include <string_view>

#include "server/util/strings.h"

namespace rk8s::server {
namespace {

// A Service port's protocol in CoreDNS's reading of `_port._proto`: its
// leading `_` optional, any case.
bool names_protocol(std::string_view label) {
  if (!label.empty() && label[0] == '_') label.remove_prefix(1);
  std::string lower = ascii_lower(label);
  return lower == "tcp" || lower == "udp" || lower == "sctp" || lower == "*" || lower == "any";
}

}  // namespace

bool schema_nxdomain(const Name& name, const Name& cluster_domain, uint16_t qtype) {
  if (qtype != dns::kTypeA && qtype != dns::kTypeAAAA && qtype != dns::kTypeSRV) return false;
  Name svc, base;
  if (!name_prepend("svc", cluster_domain, svc) || !dns::name_strip_suffix(name, svc, base)) return false;
  size_t labels = dns::name_label_count(base);  // the namespace last
  if (labels >= 5) return true;
  if (labels < 4) return false;
  const uint8_t* second = base.wire + 1 + base.wire[0];
  return !names_protocol(std::string_view(reinterpret_cast<const char*>(second + 1), *second));
}

}  // namespace rk8s::server
