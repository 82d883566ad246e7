// SPDX-License-Identifier: Apache-2.0
// The schema cut (autopath.schemaCut): an autopath candidate the Kubernetes
// DNS schema makes NXDOMAIN, which the walk skips without asking cluster
// DNS. Under <ns>.svc.<clusterDomain> the schema names one label (a
// Service), two (an endpoint's hostname of a headless Service) or three
// (`_port._proto`, SRV), and nothing below those; CoreDNS's kubernetes
// plugin answers NXDOMAIN past them, and reads three labels as port and
// protocol with or without their `_`. So a name there is certain not to
// exist when it has four labels or more before the namespace, or three
// whose second names no protocol a Service port can have (TCP, UDP, SCTP,
// or CoreDNS's old wildcards `*` and `any`); but for CoreDNS 1.14.7's
// zonal names of a headless Service (its `zonal` option),
// `zone.pin._zone.<svc>.<ns>` or `prefer`, the zone one label or more,
// never cut. The certainty is the schema's:
// a cluster DNS that serves more under the cluster domain (a fallthrough
// to another plugin) is why the cut is opt-in.
#pragma once

#include <cstdint>

#include "server/util/names.h"

namespace rk8s::server {

// For the types the schema defines under svc (A, AAAA, SRV); false for any
// other, and for names outside svc.<cluster_domain>.
bool schema_nxdomain(const Name& name, const Name& cluster_domain, uint16_t qtype);

}  // namespace rk8s::server
