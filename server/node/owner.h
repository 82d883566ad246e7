// SPDX-License-Identifier: Apache-2.0
// Whether the DaemonSet the cache runs under is still wanted, asked of the
// API server at the last instance's exit (nodeSetup.daemonSet): a rolling
// update leaves it in place, and the link-local address is kept for the
// next instance; `helm uninstall` or `kubectl delete -k` deleted it (or is
// deleting it), and nothing of ours is to stay on the node. So did a 401
// or 403: the uninstall deletes the ServiceAccount and the Role with the
// DaemonSet, before its pods end (seen against the real API server: 403,
// the Role gone first). A pod force-deleted, or a signing key rotated
// without keeping the old, gets a 401 too: the address goes, and the next
// instance puts it back, a gap as with keepLinkLocal false. One GET,
// in-cluster (common/kube_api.h).
#pragma once

#include <string>

#include "common/kube_api.h"

namespace rk8s::server {

enum class OwnerState : unsigned char {
  present,  // there, not being deleted
  gone,     // 404, a deletionTimestamp, 401 or 403: the release is going
  unknown,  // no answer (no API server, the deadline, TLS), any other status
};

struct OwnerAnswer {
  OwnerState state = OwnerState::unknown;
  std::string why;  // for the log: "404", "being deleted", "connect: ..."
};

// GET /apis/apps/v1/namespaces/NAMESPACE/daemonsets/NAME, `owner` being
// "NAMESPACE/NAME"; `account_dir` holds `token` and `ca.crt`. Waits 3 s at
// most in all.
OwnerAnswer daemon_set_state(const std::string& owner,
                             const std::string& account_dir = kServiceAccountDir);

}  // namespace rk8s::server
