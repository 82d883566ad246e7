// SPDX-License-Identifier: Apache-2.0
// Everything the server serves, read before any socket opens: all of it
// loads, or start-up stops at the first error.
#pragma once

#include <string>
#include <vector>

#include "server/data/store.h"
#include "server/model/warn.h"

namespace rk8s::server {

// `cluster_file` may be empty (no cluster zone). Throws LoadError or
// std::runtime_error ("path: reason" for an unreadable file), each with a
// one-line message.
void load_store(const std::string& cluster_file, const std::string& cluster_domain,
                const std::vector<std::string>& zone_files, const Warn& warn, Store& store);

}  // namespace rk8s::server
