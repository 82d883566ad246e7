// SPDX-License-Identifier: Apache-2.0
#include "server/answer/schema_cut.h"

#include <string>
#include <string_view>

namespace rk8s::server {
namespace {

// A Service port's protocol in CoreDNS's reading of `_port._proto`
// (`label` lowercased): its leading `_` optional.
bool names_protocol(std::string_view label) {
  if (!label.empty() && label[0] == '_') label.remove_prefix(1);
  return label == "tcp" || label == "udp" || label == "sctp" || label == "*" || label == "any";
}

// CoreDNS 1.14.7's zonal names, `zone.pin|prefer._zone.<svc>.<ns>`, the
// zone one label or more.
bool zonal(const Name& base) {
  if (name_label_from_right(base, 2) != "_zone") return false;
  std::string directive = name_label_from_right(base, 3);
  return directive == "pin" || directive == "prefer";
}

}  // namespace

bool schema_nxdomain(const Name& name, const Name& cluster_domain, uint16_t qtype) {
  if (qtype != dns::kTypeA && qtype != dns::kTypeAAAA && qtype != dns::kTypeSRV) return false;
  Name svc, base;
  if (!name_prepend("svc", cluster_domain, svc) || !dns::name_strip_suffix(name, svc, base)) return false;
  size_t labels = dns::name_label_count(base);  // the namespace last
  if (labels >= 5) return !zonal(base);
  if (labels < 4) return false;
  return !names_protocol(name_label_from_right(base, 2));
}

}  // namespace rk8s::server
