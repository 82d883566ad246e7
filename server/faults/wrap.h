// SPDX-License-Identifier: Apache-2.0
// The test faults put around the query path (process/query_path.h's
// QueryPathWrap), as CoreDNS's erratic plugin wraps the handlers after
// it: the name faults around each closed world, the EDNS modes and the
// delay around the handler, the test log beside the query path's own.
// With no fault asked for, nothing: the path is as it is.
#pragma once

#include "server/faults/flags.h"
#include "server/process/query_path.h"

namespace rk8s::server {

// Throws std::runtime_error when the test log cannot be opened.
QueryPathWrap wrap_query_path(const TestFaults& faults);

}  // namespace rk8s::server
