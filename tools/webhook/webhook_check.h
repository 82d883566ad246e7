// SPDX-License-Identifier: Apache-2.0
// resolv-k8s webhook check [--namespace NS] [--image IMAGE]: that a pod
// created in NS (default: the pod's own) would be injected, as the chart's
// `helm test` asks from inside the cluster: a pod POSTed to the API server
// with ?dryRun=All, so every admission webhook runs and nothing is stored,
// and the pod it sends back carries resolv-k8s.io/injected. Exit 0 when it
// does, 1 with the reason when not. Its RBAC: create pods in NS.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int webhook_check_command(const Args& args);

}  // namespace rk8s::tools
