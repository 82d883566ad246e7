// SPDX-License-Identifier: Apache-2.0
// --autopath formerr|echo: the server as two kinds of server a pod may
// find in its way that know nothing of autopath, for the client's tests.
// formerr, a broken old server: FORMERR, without OPT, to a well-formed
// query with any EDNS option (one that is malformed, signed or of a later
// EDNS version gets the handler's answer first). echo, a middlebox: the
// query's options back in the reply's OPT, verbatim (Q still set), when
// the reply has room for them. Else, and for every other query, the
// handler's answer with autopath off.
#pragma once

#include <cstdint>

#include "server/answer/handler.h"

namespace rk8s::server {

enum class EdnsMode : uint8_t { formerr, echo };

// What handles a query in `mode`, with `config`'s router, code and limits.
Handle edns_mode_handle(EdnsMode mode, const HandlerConfig& config);

}  // namespace rk8s::server
