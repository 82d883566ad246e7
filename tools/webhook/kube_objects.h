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

// What of tls.crt, tls.key, ca.crt and ca.key the Secret `json` holds (and
// base64).
CertificateSet read_tls_secret(std::string_view json);
// The Secret holding `set`: for a POST (`current` empty), NAMESPACE/NAME of
// type kubernetes.io/tls; for a PUT, the Secret `current` as read, its data
// replaced and all else kept: its type, which cannot change, and the
// labels and annotations of what made it (the chart's, for Helm to keep
// it as its own).
std::string tls_secret_json(const std::string& ns, const std::string& name, const CertificateSet& set,
                            std::string_view current);

// The JSON Patch that sets the caBundle of the webhook named `webhook` in
// the MutatingWebhookConfiguration `json` to `ca_pem` (a test of its name
// first, should the list change in between); "" when it holds it already.
// Throws LoadError also when no webhook has that name.
std::string ca_bundle_patch(std::string_view json, const std::string& webhook, const std::string& ca_pem);

// What the pod `json` says of its injection: its annotation
// resolv-k8s.io/injected, "" when it has none (or one inject cannot read).
std::string pod_injection(std::string_view json);

}  // namespace rk8s::tools
