// SPDX-License-Identifier: Apache-2.0
// resolv-k8s webhook --cert FILE --key FILE [--listen ADDR:PORT] [INJECT
// FLAGS]: the mutating admission webhook, over HTTPS (libevent's evhttp on
// OpenSSL). POST /mutate answers AdmissionReviews (admission.h); GET
// /healthz says it answers (liveness), GET /readyz that it serves the
// certificate wanted, not the stand-in of serving_tls.h (readiness); GET
// /metrics counts in Prometheus's text. The
// certificate and key are read again when either file changes (a Secret
// rotated under the pod), for the connections after it. --tls-secret NAME
// instead: its own certificate, kept in that Secret through the API server
// (certificate_keeper.h). `webhook check` is webhook_check.h's.
#pragma once

#include "tools/usage/usage.h"

namespace rk8s::tools {

int webhook_command(const Args& args);

}  // namespace rk8s::tools
