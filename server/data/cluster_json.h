// SPDX-License-Identifier: Apache-2.0
// The cluster file: `kubectl get namespaces,services,endpointslices,pods
// --all-namespaces -o json`, read into the objects of cluster.h.
#pragma once

#include "common/json.h"
#include "server/data/cluster.h"
#include "server/model/warn.h"

namespace rk8s::server {

// Throws LoadError on a value of the wrong shape; an item of another kind
// is skipped with one warning.
Cluster parse_cluster(const JsonDoc& doc, const std::string& file, const Warn& warn);

}  // namespace rk8s::server
