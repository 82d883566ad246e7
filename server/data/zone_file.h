// SPDX-License-Identifier: Apache-2.0
// RFC 1035 master files: one file is one zone, its apex the owner of its
// single SOA record. $ORIGIN, $TTL, @, relative names, parentheses across
// lines, comments, TTL and class in either order; types SOA NS A AAAA CNAME
// SRV TXT PTR MX. Wildcards are ordinary "*" owners.
#pragma once

#include <string>
#include <string_view>

#include "server/data/store.h"

namespace rk8s::server {

// Adds the zone to `store`; throws LoadError("file:line: ...") on the first
// error, before anything was added.
void load_zone(std::string_view text, const std::string& file, Store& store);

}  // namespace rk8s::server
