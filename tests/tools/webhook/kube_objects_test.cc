// SPDX-License-Identifier: Apache-2.0
// The API server's objects the webhook reads and writes for itself: a TLS
// Secret both ways, the caBundle's patch (none when it holds the CA), the
// dry run's pod read for its injection, and JSON that is not the object.
#include "tools/webhook/kube_objects.h"

#include <gtest/gtest.h>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/webhook/base64.h"

namespace rk8s::tools {
namespace {

TEST(KubeObjects, ATlsSecretBothWays) {
  CertificateSet set{"CA PEM", "CA KEY", "TLS PEM", "TLS KEY"};
  std::string json = tls_secret_json("kube-system", "resolv-k8s-webhook-tls", set, "42");
  JsonDoc doc(json, "secret");
  EXPECT_EQ("kubernetes.io/tls", doc.root()["type"].asString());
  EXPECT_EQ("kube-system", doc.root()["metadata"]["namespace"].asString());
  EXPECT_EQ(base64("TLS PEM"), doc.root()["data"]["tls.crt"].asString());
  TlsSecret back = read_tls_secret(json);
  EXPECT_EQ("42", back.resource_version);
  EXPECT_EQ(set.ca_crt, back.set.ca_crt);
  EXPECT_EQ(set.ca_key, back.set.ca_key);
  EXPECT_EQ(set.tls_crt, back.set.tls_crt);
  EXPECT_EQ(set.tls_key, back.set.tls_key);
  // For a POST, no resourceVersion.
  EXPECT_FALSE(JsonDoc(tls_secret_json("ns", "s", set, ""), "s").root()["metadata"].isMember("resourceVersion"));
  // Values that are not base64 are read as absent.
  EXPECT_EQ("", read_tls_secret(R"({"kind":"Secret","data":{"tls.crt":"%%%"}})").set.tls_crt);
}

const char* kConfig = R"({"kind":"MutatingWebhookConfiguration","webhooks":[
  {"name":"other.example.com","clientConfig":{"caBundle":"T1RIRVI="}},
  {"name":"inject.resolv-k8s.io","clientConfig":{"service":{"name":"resolv-k8s-webhook"}}}]})";

TEST(KubeObjects, TheCaBundlePatchedOnlyWhenItDiffers) {
  std::string patch = ca_bundle_patch(kConfig, "inject.resolv-k8s.io", "CA PEM");
  EXPECT_EQ(R"([{"op":"test","path":"/webhooks/1/name","value":"inject.resolv-k8s.io"},)"
            R"({"op":"add","path":"/webhooks/1/clientConfig/caBundle","value":")" + base64("CA PEM") + R"("}])",
            patch);
  std::string holding = std::string(kConfig);
  holding.replace(holding.find(R"("service")"), 0, R"("caBundle":")" + base64("CA PEM") + R"(",)");
  EXPECT_EQ("", ca_bundle_patch(holding, "inject.resolv-k8s.io", "CA PEM"));
  EXPECT_NE("", ca_bundle_patch(holding, "inject.resolv-k8s.io", "ANOTHER CA"));
  EXPECT_THROW(ca_bundle_patch(kConfig, "missing.resolv-k8s.io", "CA PEM"), LoadError);
}

TEST(KubeObjects, ThePodsInjection) {
  EXPECT_EQ("", pod_injection(R"({"kind":"Pod","metadata":{"name":"p"}})"));
  EXPECT_EQ("", pod_injection(R"({"kind":"Pod","metadata":{"annotations":{"resolv-k8s.io/injected":"junk"}}})"));
}

TEST(KubeObjects, NotTheObjectIsALoadError) {
  for (const char* json : {"", "[]", R"({"kind":"ConfigMap"})", "{\"kind\":\"Secret\"", "\"Secret\""}) {
    SCOPED_TRACE(json);
    EXPECT_THROW(read_tls_secret(json), LoadError);
    EXPECT_THROW(ca_bundle_patch(json, "inject.resolv-k8s.io", "CA"), LoadError);
    EXPECT_THROW(pod_injection(json), LoadError);
  }
}

}  // namespace
}  // namespace rk8s::tools
