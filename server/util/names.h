// SPDX-License-Identifier: Apache-2.0
// Domain-name operations the server needs on top of the core's wire codec.
#pragma once

#include <string>
#include <string_view>

#include "libresolv-k8s/dns/wire.h"

namespace rk8s::server {

using dns::Name;

// The name without its first label; the root stays the root.
Name name_parent(const Name& name);
// Lowercased wire bytes: one map key per name, whatever its case.
std::string name_key(const Name& name);
// Label `i` of `name` from the right (0: the one before the root),
// lowercased; empty when `name` has no more than `i` labels.
std::string name_label_from_right(const Name& name, size_t i);
// `label` (a single label, no escapes needed) in front of `name`.
bool name_prepend(std::string_view label, const Name& name, Name& out);

}  // namespace rk8s::server
