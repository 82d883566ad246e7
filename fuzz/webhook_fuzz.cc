// SPDX-License-Identifier: Apache-2.0
// `resolv-k8s webhook`'s request body, any bytes: an HTTP error (400, or
// 413 over the bound on values) or an AdmissionReview response, never a
// crash; a response is JSON carrying the request's uid and `allowed: true`,
// and a patch only as a JSONPatch. A first byte 'M' picks the marker path
// as the default for the rest.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/webhook/admission.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rk8s::tools::InjectOptions options{"libresolv-k8s-init:0.1", "glibc", {"169.254.20.10", "10.96.0.10"},
                             "cluster.local", ""};
  if (size > 0 && data[0] == 'M') {
    options.marker = true;
    data++, size--;
  }
  rk8s::tools::Admission a = rk8s::tools::admit(std::string_view(reinterpret_cast<const char*>(data), size), options);
  if (a.outcome == rk8s::tools::Admission::refused) {
    if (a.http_status != 400 && a.http_status != 413) abort();  // 413: over the bound on values
    return 0;
  }
  Json::Value response;
  try {
    response = rk8s::JsonDoc(a.body, "response").root()["response"];
  } catch (const rk8s::LoadError&) {
    abort();
  }
  if (a.http_status != 200 || !response["uid"].isString() || response["allowed"] != true) abort();
  if ((a.outcome == rk8s::tools::Admission::patched) != response.isMember("patch")) abort();
  if (response.isMember("patch") && response["patchType"] != "JSONPatch") abort();
  return 0;
}
