// SPDX-License-Identifier: Apache-2.0
// File descriptors, which every connection and every question in flight
// takes one of: the soft RLIMIT_NOFILE is raised to the hard one (containers
// often start with 1024 of a much larger hard limit), and the limits that
// cost one each (questions in flight, a UDP socket each; TCP and HTTP
// clients) are lowered together, in proportion, when they do not all fit
// beside what the process needs besides.
#pragma once

#include <string>

#include "server/config/limits.h"

namespace rk8s::server {

// The descriptors this process may open, once raised.
size_t raise_descriptor_limit();

// `limits` fitted into `available` descriptors of which `reserved` go to
// the rest of the process; what was lowered in words ("" when nothing).
std::string fit_descriptors(Limits& limits, size_t available, size_t reserved);

// Descriptors open now.
size_t open_descriptors();

}  // namespace rk8s::server
