// SPDX-License-Identifier: Apache-2.0
// What an NXDOMAIN of the cluster's DNS says about the names below it.
// CoreDNS's kubernetes plugin (plugin/kubernetes/parse.go) reads a name
// under the cluster domain right to left: `svc` or `pod`, a namespace, a
// Service, then an endpoint, `_port._proto`, a multicluster zone's
// `endpoint.cluster`, or 1.14.7's zonal `zone.pin|prefer._zone`; what it
// cannot place (another first label, too many labels) is NXDOMAIN, for
// every type. Down to the Service, an NXDOMAIN holds below too: a
// namespace or Service that does not exist has no endpoint, port or zone.
// One label further it does not: `_tcp.web.ns.svc` is read as endpoint
// `_tcp` and is NXDOMAIN while `_http._tcp.web.ns.svc` has its SRV record,
// and the same goes for `_zone.web.ns.svc` and `pin._zone.web.ns.svc`
// above zonal names, and `cluster.web.ns.svc` above multicluster ones.
#pragma once

#include "server/util/names.h"

namespace rk8s::server {

// True when `name`, strictly below `cluster_domain`, is one whose NXDOMAIN
// from CoreDNS holds for every name below it and every type (RFC 8020 and
// RFC 2308 as CoreDNS keeps them); false outside the cluster domain.
bool nxdomain_holds_below(const Name& name, const Name& cluster_domain);

}  // namespace rk8s::server
