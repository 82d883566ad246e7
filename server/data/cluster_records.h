// SPDX-License-Identifier: Apache-2.0
// The Kubernetes DNS schema: the records cluster DNS serves for the
// objects of cluster.h.
#pragma once

#include <string>

#include "server/data/cluster.h"
#include "server/data/store.h"

namespace rk8s::server {

// The cluster domain's zone (SOA, NS) and the reverse zones, then every
// record of the Kubernetes DNS schema. Throws LoadError when a name made
// from the objects is not a valid domain name.
void add_cluster(const Cluster& cluster, const Name& domain, const std::string& file,
                 Store& store);

}  // namespace rk8s::server
