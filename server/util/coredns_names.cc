// SPDX-License-Identifier: Apache-2.0
#include "server/util/coredns_names.h"

namespace rk8s::server {

bool nxdomain_holds_below(const Name& name, const Name& cluster_domain) {
  Name base;
  if (!dns::name_strip_suffix(name, cluster_domain, base) || base.len <= 1) return false;
  if (dns::name_label_count(base) <= 3) return true;  // svc|pod, a namespace, a Service
  std::string kind = name_label_from_right(base, 0);
  return kind != "svc" && kind != "pod";
}

}  // namespace rk8s::server
