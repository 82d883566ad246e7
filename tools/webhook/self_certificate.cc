// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/self_certificate.h"

#include "common/load_error.h"
#include "tools/webhook/kube_objects.h"

namespace rk8s::tools {
namespace {

// Tries before giving up for this round: each conflict is another
// replica's write, read back the next time.
constexpr int kTries = 3;

std::string failed(const std::string& what, const KubeAnswer& a) {
  return what + ": " + (a.status == 0 ? a.why : "HTTP " + std::to_string(a.status));
}

}  // namespace

SecretOutcome sync_tls_secret(const SelfCertificate& self, time_t now) {
  std::string secrets = "/api/v1/namespaces/" + self.ns + "/secrets";
  std::string name = self.ns + "/" + self.secret;
  bool raced = false;
  for (int i = 0; i < kTries; i++) {
    KubeAnswer got = kube_request("GET", secrets + "/" + self.secret, "", "", self.account_dir);
    if (got.status != 200 && got.status != 404) return {{}, "", failed("GET Secret " + name, got)};
    CertificateSet current;
    std::string problem = "absent";
    if (got.status == 200) {
      try {
        current = read_tls_secret(got.body);
        problem = certificate_problem(current, self.names, now);
      } catch (const LoadError& e) {
        problem = e.what();
      }
      if (problem.empty()) return {current, raced ? "another replica's, after a conflict" : "kept", ""};
    }
    bool create = got.status == 404;
    CertificateSet fresh = make_certificates(self.names, current, now);
    KubeAnswer wrote = kube_request(create ? "POST" : "PUT", create ? secrets : secrets + "/" + self.secret,
                                    tls_secret_json(self.ns, self.secret, fresh, create ? "" : got.body),
                                    "application/json", self.account_dir);
    if (wrote.status == 200 || wrote.status == 201) return {fresh, create ? "created" : "renewed: " + problem, ""};
    if (wrote.status != 409) return {{}, "", failed((create ? "POST Secret " : "PUT Secret ") + name, wrote)};
    raced = true;
  }
  return {{}, "", "Secret " + name + ": a conflict at each of " + std::to_string(kTries) + " tries"};
}

std::string sync_ca_bundle(const SelfCertificate& self, const std::string& ca_pem, bool& patched) {
  std::string path = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/" + self.configuration;
  std::string name = "MutatingWebhookConfiguration " + self.configuration;
  patched = false;
  KubeAnswer got = kube_request("GET", path, "", "", self.account_dir);
  if (got.status != 200) return failed("GET " + name, got);
  std::string patch;
  try {
    patch = ca_bundle_patch(got.body, self.webhook, ca_pem);
  } catch (const LoadError& e) {
    return e.what();
  }
  if (patch.empty()) return "";
  KubeAnswer wrote = kube_request("PATCH", path, patch, "application/json-patch+json", self.account_dir);
  if (wrote.status != 200) return failed("PATCH " + name, wrote);
  patched = true;
  return "";
}

}  // namespace rk8s::tools
