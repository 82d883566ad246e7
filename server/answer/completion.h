// SPDX-License-Identifier: Apache-2.0
// What a recursive resolver owes its client and an upstream may leave
// undone: an answer that ends in a CNAME whose target the upstream did not
// resolve (cluster DNS answering an ExternalName Service with the bare
// CNAME, as kube-dns did and CoreDNS does when its own upstream has no
// answer for the target) is completed through the router, so the target's
// zone picks its upstream.
#pragma once

#include "server/answer/router.h"

namespace rk8s::server {

// The name `res`'s CNAME chain leaves unresolved: a NOERROR answer from an
// upstream, without records of the type asked or a negative SOA, whose
// chain from the name asked ends at `target`.
bool dangling(const Ask& ask, const Resolution& res, Name& target);

// Resolves `target` and what its chain leads to in turn, at most kMaxLinks
// CNAMEs in all, a loop SERVFAIL, and calls `done` with `res`'s chain
// followed by the last link's answer: its rcode (RFC 6604), records,
// authority and additional sections. Each link is the source's own, cached
// by its own TTL; the TTLs written are each record's as it stands now.
void complete_chain(const Router& router, const Ask& ask, const Resolution& res, const Name& target,
                    Resolved done);

constexpr int kMaxLinks = 8;

}  // namespace rk8s::server
