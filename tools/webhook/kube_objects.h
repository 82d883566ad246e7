// SPDX-License-Identifier: Apache-2.0
// The API server's objects the webhook reads and writes for itself: its
// certificate's Secret, its MutatingWebhookConfiguration's caBundle, and
// the pod `webhook check` gets back from a dry run. Each reader throws
// LoadError ("what:line: ...") on JSON that is not the object.
#pragma once

#include <string>
#include <string_view>

#include "tools/webhook/certificate.h"

namespace rk8s::tools {

struct TlsSecret {
  CertificateSet set;  // what of tls.crt, tls.key, ca.crt and ca.key is there (and base64)
  std::string resource_version;
};

TlsSecret read_tls_secret(std::string_view json);
// The Secret NAMESPACE/NAME of type kubernetes.io/tls holding `set`, for a
// POST (no resource_version) or a PUT (the one it replaces).
std::string tls_secret_json(const std::string& ns, const std::string& name, const CertificateSet& set,
                            const std::string& resource_version);

// The JSON Patch that sets the caBundle of the webhook named `webhook` in
// the MutatingWebhookConfiguration `json` to `ca_pem` (a test of its name
// first, should the list change in between); "" when it holds it already.
// Throws LoadError also when no webhook has that name.
std::string ca_bundle_patch(std::string_view json, const std::string& webhook, const std::string& ca_pem);

// What the pod `json` says of its injection: its annotation
// resolv-k8s.io/injected, "" when it has none (or one inject cannot read).
std::string pod_injection(std::string_view json);

}  // namespace rk8s::tools
