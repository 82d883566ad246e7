// SPDX-License-Identifier: Apache-2.0
// One HTTPS request to the Kubernetes API server from inside a pod, as
// client-go's rest.InClusterConfig reads where it is: KUBERNETES_SERVICE_HOST
// and _PORT, the ServiceAccount's token and CA (the server's DaemonSet
// check, the webhook's own certificate and its `check`).
#pragma once

#include <string>

namespace rk8s {

constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

struct KubeAnswer {
  int status = 0;    // the HTTP status; 0: no answer
  std::string body;  // its chunks joined when it came chunked
  std::string why;   // with no answer, why: "connect ...: ...", "TLS: ...", "... not set"
};

// METHOD PATH with `body` (of `content_type`, when not empty); `account_dir`
// holds `token` and `ca.crt`. Waits 3 s at most for the whole of it
// (connect, TLS, the request, the answer to its last byte): an answer not
// whole by then is none. Reads 1 MiB of answer at most.
KubeAnswer kube_request(const std::string& method, const std::string& path, const std::string& body = "",
                        const std::string& content_type = "application/json",
                        const std::string& account_dir = kServiceAccountDir);

// The pod's own namespace, `account_dir`/namespace; "" when unreadable.
std::string kube_namespace(const std::string& account_dir = kServiceAccountDir);

}  // namespace rk8s
