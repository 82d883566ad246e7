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
  TlsSecret s = read_tls_secret(json);
  TlsSecret again = read_tls_secret(tls_secret_json("ns", "name", s.set, s.resource_version));
  // The PEMs, as base64, come back byte for byte (a resourceVersion that
  // is no UTF-8 is written as jsoncpp writes such strings).
  if (again.set.tls_crt != s.set.tls_crt || again.set.tls_key != s.set.tls_key || again.set.ca_crt != s.set.ca_crt ||
      again.set.ca_key != s.set.ca_key)
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
