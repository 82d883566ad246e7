// SPDX-License-Identifier: Apache-2.0
// The webhook's own certificate, kept through the API server
// (`--tls-secret`), as Kyverno and Gatekeeper keep theirs: the Secret read,
// made when absent, renewed when it is not to be served (expired or near
// it, not naming the Service, not whole), another replica's taken when it
// wrote first (409: read again); the MutatingWebhookConfiguration's
// caBundle patched to the Secret's ca.crt when it differs. Its RBAC: get,
// create and update of the Secret, get and patch of the configuration.
#pragma once

#include <ctime>
#include <string>
#include <vector>

#include "common/kube_api.h"
#include "tools/webhook/certificate.h"

namespace rk8s::tools {

struct SelfCertificate {
  std::string ns, secret;  // the Secret NAMESPACE/NAME (the pod's own namespace)
  std::string configuration, webhook = "inject.resolv-k8s.io";
  std::vector<std::string> names;  // the Service's: NAME.NS.svc, NAME.NS.svc.DOMAIN, NAME.NS
  std::string account_dir = kServiceAccountDir;
};

struct SecretOutcome {
  CertificateSet set;  // to serve; empty with an error
  std::string said;    // "kept", "created", "renewed: WHY", "another replica's, after a conflict"
  std::string error;   // "" when there is a set
};

SecretOutcome sync_tls_secret(const SelfCertificate& self, time_t now);

// "" when the caBundle holds `ca_pem` (`patched` when this call wrote it),
// else why it could not be read or written.
std::string sync_ca_bundle(const SelfCertificate& self, const std::string& ca_pem, bool& patched);

}  // namespace rk8s::tools
