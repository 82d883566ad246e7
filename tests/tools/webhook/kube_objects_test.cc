// SPDX-License-Identifier: Apache-2.0
// The API server's objects the webhook reads and writes for itself: a TLS
// Secret both ways, a PUT keeping all but its data, the caBundle's patch
// (none when it holds the CA), the dry run's pod read for its injection,
// and JSON that is not the object.
#include "tools/webhook/kube_objects.h"

#include <gtest/gtest.h>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/webhook/base64.h"

namespace rk8s::tools {
namespace {

TEST(KubeObjects, ATlsSecretBothWays) {
  CertificateSet set{"CA PEM", "CA KEY", "TLS PEM", "TLS KEY"};
  std::string json = tls_secret_json("kube-system", "resolv-k8s-webhook-tls", set, "");
  JsonDoc doc(json, "secret");
  EXPECT_EQ("kubernetes.io/tls", doc.root()["type"].asString());
  EXPECT_EQ("kube-system", doc.root()["metadata"]["namespace"].asString());
  EXPECT_FALSE(doc.root()["metadata"].isMember("resourceVersion"));  // a POST
  EXPECT_EQ(base64("TLS PEM"), doc.root()["data"]["tls.crt"].asString());
  CertificateSet back = read_tls_secret(json);
  EXPECT_EQ(set.ca_crt, back.ca_crt);
  EXPECT_EQ(set.ca_key, back.ca_key);
  EXPECT_EQ(set.tls_crt, back.tls_crt);
  EXPECT_EQ(set.tls_key, back.tls_key);
  // Values that are not base64 are read as absent.
  EXPECT_EQ("", read_tls_secret(R"({"kind":"Secret","data":{"tls.crt":"%%%"}})").tls_crt);
}

// A PUT replaces the data of the Secret as read and keeps the rest: the
// chart's empty Opaque Secret stays Opaque, Helm's, at its version.
TEST(KubeObjects, APutKeepsAllButTheData) {
  const char* chart = R"({"apiVersion":"v1","kind":"Secret","type":"Opaque","metadata":{"name":"resolv-k8s-webhook-tls",
    "namespace":"kube-system","resourceVersion":"42","labels":{"app.kubernetes.io/managed-by":"Helm"},
    "annotations":{"meta.helm.sh/release-name":"resolv-k8s"}},"data":{"other":"eA=="}})";
  CertificateSet set{"CA PEM", "CA KEY", "TLS PEM", "TLS KEY"};
  JsonDoc doc(tls_secret_json("kube-system", "resolv-k8s-webhook-tls", set, chart), "secret");
  const Json::Value& put = doc.root();
  EXPECT_EQ("Opaque", put["type"].asString());
  EXPECT_EQ("42", put["metadata"]["resourceVersion"].asString());
  EXPECT_EQ("Helm", put["metadata"]["labels"]["app.kubernetes.io/managed-by"].asString());
  EXPECT_EQ("resolv-k8s", put["metadata"]["annotations"]["meta.helm.sh/release-name"].asString());
  EXPECT_EQ("eA==", put["data"]["other"].asString());
  EXPECT_EQ(base64("CA KEY"), put["data"]["ca.key"].asString());
  // A Secret made with no data at all gets its own.
  JsonDoc bare(tls_secret_json("ns", "s", set, R"({"kind":"Secret","type":"Opaque","metadata":{"name":"s"}})"), "s");
  EXPECT_EQ(base64("TLS KEY"), bare.root()["data"]["tls.key"].asString());
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
