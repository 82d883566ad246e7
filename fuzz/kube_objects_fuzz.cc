// SPDX-License-Identifier: Apache-2.0
// The API server's JSON the webhook reads for itself (kube_objects.h), any
// bytes: its Secret, its MutatingWebhookConfiguration, the dry run's pod.
// Each is read or refused with a LoadError, never a crash; a Secret read
// is written back and read again with the same PEMs; a caBundle patch, when one is
// due, is JSON.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/webhook/kube_objects.h"

namespace rk8s::tools {
namespace {

void secret(std::string_view json) {
  CertificateSet s = read_tls_secret(json);
  CertificateSet again = read_tls_secret(tls_secret_json("ns", "name", s, json));
  // The PEMs, as base64, come back byte for byte, whatever else the Secret
  // held.
  if (again.tls_crt != s.tls_crt || again.tls_key != s.tls_key || again.ca_crt != s.ca_crt || again.ca_key != s.ca_key)
    abort();
}

void configuration(std::string_view json) {
  std::string patch = ca_bundle_patch(json, "inject.resolv-k8s.io", "CA PEM");
  if (!patch.empty()) JsonDoc(patch, "patch");
}

}  // namespace
}  // namespace rk8s::tools

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view json(reinterpret_cast<const char*>(data), size);
  for (auto read : {rk8s::tools::secret, rk8s::tools::configuration,
                    +[](std::string_view j) { rk8s::tools::pod_injection(j); }}) {
    try {
      read(json);
    } catch (const rk8s::LoadError&) {
    }
  }
  return 0;
}
