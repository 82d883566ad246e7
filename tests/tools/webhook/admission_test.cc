// SPDX-License-Identifier: Apache-2.0
// One AdmissionReview answered: bodies that are no review refused (413 past
// the bound on values), every object allowed, the patch doing what inject
// does (tests/webhook/ compares the two whole), the annotations read, and
// what is left alone said in a warning and counted by its reason.
#include "tools/webhook/admission.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include "tests/tools/fixture.h"
#include "tools/inject/yaml_json.h"

namespace rk8s::tools {
namespace {

using test::at;
using test::parse_json;

const char kUid[] = "0b7d1f3e-1111-4222-8333-444455556666";
const std::string kPod =
    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"generateName\":\"web-\"},"
    "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:1\"}]}}";

// The review the API server sends for `object` (JSON text) in `ns`.
std::string review(const std::string& object, const std::string& ns = "shop", const std::string& operation = "CREATE",
                   const std::string& kind = "{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"}") {
  return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" +
         std::string(kUid) + "\",\"kind\":" + kind + ",\"namespace\":\"" + ns + "\",\"operation\":\"" + operation +
         "\",\"object\":" + object + "}}";
}

// kPod with `metadata` in place of its own.
std::string pod_with(const std::string& metadata) {
  return "{\"metadata\":" + metadata + ",\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:1\"}]}}";
}

InjectOptions defaults() {
  return test::options_of({"--image", test::kImage, "--nameserver", "169.254.20.10,10.96.0.10"});
}

// The response's patch decoded, applied to the review's object.
Json::Value patched(const std::string& body, const Admission& a) {
  Json::Value response = parse_json(a.body)["response"];
  Json::Value object = parse_json(body)["request"]["object"];
  if (!response.isMember("patch")) return object;
  EXPECT_EQ("JSONPatch", response["patchType"].asString());
  std::string b64 = response["patch"].asString();
  std::string ops(b64.size(), '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(ops.data()),
                          reinterpret_cast<const unsigned char*>(b64.data()), int(b64.size()));
  ops.resize(size_t(n));
  while (!ops.empty() && ops.back() == '\0') ops.pop_back();  // the padding's bytes
  return test::apply_patch(object, parse_json(ops));
}

struct RefusedCase {
  std::string body;
  int status;
  std::string why;
};

TEST(Admit, BodiesThatAreNoReviewAreRefused) {
  // "[0,0,...]" counted as n: the text, its array, a value after each comma.
  auto values = [](int n) {
    std::string out = "[0";
    for (int i = 2; i < n; i++) out += ",0";
    return out + "]";
  };
  const RefusedCase cases[] = {
      {"", 400, "request:1: "},
      {"not json", 400, "request:1: "},
      {"{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}", 400,
       "not an admission.k8s.io/v1 AdmissionReview"},
      {"{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"Pod\"}", 400, "not an admission.k8s.io/v1 AdmissionReview"},
      {"{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}", 400,
       "an AdmissionReview without a request uid"},
      {"{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":7}}", 400,
       "an AdmissionReview without a request uid"},
      // Counted before it is read: past 20000 keys and values, 413; what
      // is in a string is no value.
      {values(20001), 413, "over 20000 JSON keys and values, more than the webhook reads"},
      {values(20000), 400, "not an admission.k8s.io/v1 AdmissionReview"},
      {"{\"a\":\"" + std::string(30000, '[') + "\"}", 400, "not an admission.k8s.io/v1 AdmissionReview"},
  };
  for (const RefusedCase& c : cases) {
    SCOPED_TRACE(c.body.substr(0, 120));
    Admission a = admit(c.body, defaults());
    EXPECT_EQ(Admission::refused, a.outcome);
    EXPECT_EQ(c.status, a.http_status);
    EXPECT_EQ(0u, a.body.find(c.why));
    EXPECT_EQ("refused: " + a.body.substr(0, a.body.size() - 1), a.summary);
    EXPECT_STREQ("refused", a.uninjected);
  }
}

struct ReviewCase {
  std::string body;
  Admission::Outcome outcome;
  std::string summary;
  std::string uninjected;  // the metric's reason
};

TEST(Admit, EveryObjectIsAllowedWhatIsLeftSaysWhy) {
  const std::string pod = "shop/web-* Pod: ";
  const ReviewCase cases[] = {
      {review(kPod), Admission::patched, pod + "patched", ""},
      {review(kPod, "shop", "UPDATE"), Admission::unchanged, pod + "left as it is", ""},
      {review(kPod, "shop", "DELETE"), Admission::unchanged, pod + "left as it is", ""},
      {review(kPod, "kube-system"), Admission::unchanged,
       "kube-system/web-* Pod: left as it is; resolv-k8s: not injected: in kube-system", "kube_system"},
      {review(pod_with("{\"annotations\":{\"resolv-k8s.io/inject\":\"disabled\"}}")), Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: not injected: its annotation resolv-k8s.io/inject is disabled", "opted_out"},
      {review(pod_with("{\"labels\":{\"resolv-k8s.io/inject\":\"disabled\"}}")), Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: not injected: its label resolv-k8s.io/inject is disabled", "opted_out"},
      {review(pod_with("{\"annotations\":{\"resolv-k8s.io/inject\":\"enabled\"}}")), Admission::patched,
       "shop/* Pod: patched", ""},
      {review(pod_with("{\"annotations\":{\"resolv-k8s.io/autopath\":\"both\"}}")), Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: not injected: annotation resolv-k8s.io/autopath: 'both' is neither "
       "option nor marker", "bad_annotation"},
      {review(pod_with("{\"annotations\":{\"resolv-k8s.io/libc\":\"bionic\"}}")), Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: not injected: annotation resolv-k8s.io/libc: 'bionic' is none of "
       "auto, glibc and musl", "bad_annotation"},
      {review("null"), Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: not injected: no object in the request", "no_object"},
      // What inject refuses or leaves, in its words.
      {review("{\"metadata\":{\"name\":\"w\"},\"spec\":{}}"), Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: spec: no containers", "inject_error"},
      {review("{\"metadata\":{\"name\":\"w\"},\"spec\":{\"hostNetwork\":true,\"containers\":[{\"name\":\"a\"}]}}"),
       Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: spec: on the node's network with the node's DNS (hostNetwork), left "
       "as it is", "left_by_inject"},
      {review("{\"metadata\":{\"name\":\"w\"},\"spec\":{\"containers\":[{\"name\":\"a\",\"envFrom\":"
              "[{\"configMapRef\":{\"name\":\"app-env\"}}]}]}}"),
       Admission::unchanged,
       "shop/* Pod: left as it is; resolv-k8s: spec.containers[0]: LD_PRELOAD may be set by envFrom (configMapRef "
       "app-env), so ours cannot be added to it", "inject_error"},
  };
  for (const ReviewCase& c : cases) {
    SCOPED_TRACE(c.body);
    Admission a = admit(c.body, defaults());
    EXPECT_EQ(c.outcome, a.outcome);
    EXPECT_EQ(200, a.http_status);
    EXPECT_EQ(std::string(kUid) + " " + c.summary, a.summary);
    EXPECT_EQ(c.uninjected, a.uninjected);
    Json::Value response = parse_json(a.body)["response"];
    EXPECT_EQ(kUid, response["uid"].asString());
    EXPECT_TRUE(response["allowed"].asBool());
    EXPECT_EQ(c.outcome == Admission::patched, response.isMember("patch"));
  }
}

struct PatchCase {
  std::string object;
  std::string kind;  // the request's
  std::string pointer, json;
};

TEST(Admit, ThePatchDoesWhatInjectDoes) {
  const std::string deployment =
      "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"template\":{\"spec\":{\"containers\":"
      "[{\"name\":\"app\",\"image\":\"app:1\"}]}}}}";
  const std::string apps = "{\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"}";
  const std::string pod = "{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"}";
  const PatchCase cases[] = {
      // The request's namespace is the pod's.
      {kPod, pod, "/spec/dnsConfig/searches/0", "\"shop.svc.cluster.local\""},
      // The kind the request names where the object has none.
      {deployment, apps, "/spec/template/spec/initContainers/0/name", "\"resolv-k8s-init\""},
      {deployment, apps, "/apiVersion", "(none)"},
      {pod_with("{\"annotations\":{\"resolv-k8s.io/autopath\":\"marker\"}}"), pod, "/spec/dnsConfig/searches/0",
       "\"search.shop.cluster.local.ap.k8s.io\""},
      {pod_with("{\"annotations\":{\"resolv-k8s.io/autopath\":\"marker\"}}"), pod, "/spec/initContainers", "(none)"},
      {pod_with("{\"annotations\":{\"resolv-k8s.io/libc\":\"musl\"}}"), pod, "/spec/containers/0/env/0/value",
       "\"/opt/resolv-k8s/musl/libresolv-k8s.so\""},
  };
  for (const PatchCase& c : cases) {
    SCOPED_TRACE(c.object);
    std::string body = review(c.object, "shop", "CREATE", c.kind);
    Admission a = admit(body, defaults());
    ASSERT_EQ(Admission::patched, a.outcome) << a.summary;
    Json::Value out = patched(body, a);
    EXPECT_EQ(c.json, at(out, c.pointer));
    // Admitted again, as the API server reinvokes webhooks: nothing to do.
    Admission again = admit(review(json_text(out), "shop", "CREATE", c.kind), defaults());
    EXPECT_EQ(Admission::unchanged, again.outcome) << again.summary;
    EXPECT_STREQ("unchanged", again.uninjected);
  }
}

TEST(Admit, TheMarkerPathNeedsTheWebhooksNameservers) {
  Admission a = admit(review(pod_with("{\"annotations\":{\"resolv-k8s.io/autopath\":\"marker\"}}")),
                      test::options_of({"--image", test::kImage}));
  EXPECT_EQ(Admission::unchanged, a.outcome);
  EXPECT_STREQ("no_nameservers", a.uninjected);
  EXPECT_EQ(std::string(kUid) +
                " shop/* Pod: left as it is; resolv-k8s: not injected: the marker path needs the webhook's "
                "--nameserver (the node-local cache, then kube-dns)",
            a.summary);
  EXPECT_EQ(
      "[\"resolv-k8s: not injected: the marker path needs the webhook's --nameserver (the node-local cache, "
      "then kube-dns)\"]",
      at(parse_json(a.body), "/response/warnings"));
}

}  // namespace
}  // namespace rk8s::tools
