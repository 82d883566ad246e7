// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/kube_objects.h"

#include "common/json.h"
#include "common/load_error.h"
#include "tools/inject/inject_status.h"
#include "tools/inject/yaml_json.h"
#include "tools/webhook/base64.h"

namespace rk8s::tools {
namespace {

// The object `json` of `kind`, or LoadError naming what it is instead.
Json::Value object_of(std::string_view json, const char* kind) {
  JsonDoc doc(json, kind);
  const Json::Value& root = doc.root();
  if (json_string(root, "kind") != kind) throw LoadError(kind, 1, std::string("not a ") + kind);
  return root;
}

}  // namespace

CertificateSet read_tls_secret(std::string_view json) {
  Json::Value secret = object_of(json, "Secret");
  CertificateSet out;
  const Json::Value& data = json_member(secret, "data");
  std::pair<const char*, std::string*> keys[] = {
      {"tls.crt", &out.tls_crt}, {"tls.key", &out.tls_key}, {"ca.crt", &out.ca_crt}, {"ca.key", &out.ca_key}};
  for (auto [key, into] : keys)
    if (std::optional<std::string> bytes = from_base64(json_string(data, key))) *into = *bytes;
  return out;
}

std::string tls_secret_json(const std::string& ns, const std::string& name, const CertificateSet& set,
                            std::string_view current) {
  Json::Value secret(Json::objectValue);
  if (!current.empty()) {
    secret = object_of(current, "Secret");
  } else {
    secret["apiVersion"] = "v1";
    secret["kind"] = "Secret";
    secret["type"] = "kubernetes.io/tls";
    secret["metadata"]["name"] = name;
    secret["metadata"]["namespace"] = ns;
    secret["metadata"]["labels"]["app.kubernetes.io/name"] = "resolv-k8s-webhook";
  }
  if (!secret["data"].isObject()) secret["data"] = Json::Value(Json::objectValue);
  secret["data"]["tls.crt"] = base64(set.tls_crt);
  secret["data"]["tls.key"] = base64(set.tls_key);
  secret["data"]["ca.crt"] = base64(set.ca_crt);
  secret["data"]["ca.key"] = base64(set.ca_key);
  return json_text(secret);
}

std::string ca_bundle_patch(std::string_view json, const std::string& webhook, const std::string& ca_pem) {
  Json::Value config = object_of(json, "MutatingWebhookConfiguration");
  const Json::Value& webhooks = json_member(config, "webhooks");
  for (Json::ArrayIndex i = 0; webhooks.isArray() && i < webhooks.size(); i++) {
    if (json_string(webhooks[i], "name") != webhook) continue;
    const Json::Value& client = json_member(webhooks[i], "clientConfig");
    if (from_base64(json_string(client, "caBundle")) == ca_pem) return "";
    std::string at = "/webhooks/" + std::to_string(i);
    Json::Value patch(Json::arrayValue);
    Json::Value test(Json::objectValue), set(Json::objectValue);
    test["op"] = "test", test["path"] = at + "/name", test["value"] = webhook;
    set["op"] = "add", set["path"] = at + "/clientConfig/caBundle", set["value"] = base64(ca_pem);
    patch.append(test);
    patch.append(set);
    return json_text(patch);
  }
  throw LoadError("MutatingWebhookConfiguration", 1, "no webhook " + webhook);
}

std::string pod_injection(std::string_view json) {
  Json::Value pod = object_of(json, "Pod");
  std::string status = json_string(json_member(json_member(pod, "metadata"), "annotations"), kStatusKey);
  InjectStatus parsed;
  return parse_status(status, parsed) ? status : "";
}

}  // namespace rk8s::tools
