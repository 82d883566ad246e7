// SPDX-License-Identifier: Apache-2.0
// `resolv-k8s webhook`'s answer to one AdmissionReview (admission.k8s.io/v1):
// a JSON Patch doing to the object created (a pod, or a workload holding
// pods) exactly what `resolv-k8s inject` does to it, since it is
// inject_object's own edit, read back as a patch.
#pragma once

#include <string>
#include <string_view>

#include "tools/inject/inject_options.h"

namespace rk8s::tools {

// The annotations (and, for the opt-out, labels) a pod is read with.
constexpr const char* kInjectKey = "resolv-k8s.io/inject";      // "disabled": left alone
constexpr const char* kAutopathKey = "resolv-k8s.io/autopath";  // "option" or "marker"
constexpr const char* kLibcKey = "resolv-k8s.io/libc";          // "auto", "glibc" or "musl"

// Admission::uninjected's words, each a series from the start.
constexpr const char* kUninjectedReasons[] = {"kube_system",    "no_object",      "opted_out", "bad_annotation",
                                              "no_nameservers", "inject_error",   "left_by_inject",
                                              "unchanged",      "refused"};

struct Admission {
  enum Outcome { patched, unchanged, refused } outcome = refused;
  int http_status = 400;  // 200 for an AdmissionReview answered
  std::string body;       // the AdmissionReview response, or why it was refused
  // For the request log: "uid NAMESPACE/NAME KIND: patched", or left and
  // the warnings, or refused and why.
  std::string summary;
  // For an object's creation admitted without a patch, why in a word (the
  // metric's reason): kube_system, no_object, opted_out, bad_annotation,
  // no_nameservers, inject_error, left_by_inject (inject leaves such a pod
  // as it is), unchanged (nothing to add: injected already), refused (not
  // an AdmissionReview, or too large: the API server admits it as it is
  // under failurePolicy Ignore); "" otherwise.
  const char* uninjected = "";
};

// The review in `body` answered with `defaults` (the command line's inject
// flags) and the object's annotations, in the request's namespace. Every
// object is allowed: one that cannot be injected (or is not to be) gets no
// patch and a warning naming why. A body that is no admission.k8s.io/v1
// AdmissionReview request is refused.
Admission admit(std::string_view body, const InjectOptions& defaults);

}  // namespace rk8s::tools
