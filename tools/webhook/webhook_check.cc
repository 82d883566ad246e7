// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/webhook_check.h"

#include <cstdio>

#include "common/json.h"
#include "common/kube_api.h"
#include "common/load_error.h"
#include "tools/inject/yaml_json.h"
#include "tools/webhook/kube_objects.h"

namespace rk8s::tools {
namespace {

// A pod any Pod Security level admits; never started (a dry run).
std::string pod_json(const std::string& ns, const std::string& image) {
  Json::Value pod(Json::objectValue);
  pod["apiVersion"] = "v1";
  pod["kind"] = "Pod";
  pod["metadata"]["generateName"] = "resolv-k8s-check-";
  pod["metadata"]["namespace"] = ns;
  Json::Value& c = pod["spec"]["containers"][0];
  c["name"] = "check";
  c["image"] = image;
  c["securityContext"]["allowPrivilegeEscalation"] = false;
  c["securityContext"]["capabilities"]["drop"][0] = "ALL";
  pod["spec"]["securityContext"]["runAsNonRoot"] = true;
  pod["spec"]["securityContext"]["runAsUser"] = 65534;
  pod["spec"]["securityContext"]["seccompProfile"]["type"] = "RuntimeDefault";
  return json_text(pod);
}

int fail(const std::string& why) {
  fprintf(stderr, "resolv-k8s: webhook check: %s\n", why.c_str());
  return 1;
}

}  // namespace

int webhook_check_command(const Args& args) {
  std::string ns, image = "registry.k8s.io/pause:3.10";
  for (size_t i = 0; i < args.size(); i++) {
    if (args[i] != "--namespace" && args[i] != "--image") usage_error("webhook check: unknown flag '" + args[i] + "'");
    if (i + 1 == args.size() || args[i + 1].empty()) usage_error("webhook check: " + args[i] + " needs a value");
    (args[i] == "--namespace" ? ns : image) = args[i + 1];
    i++;
  }
  if (ns.empty()) ns = kube_namespace();
  if (ns.empty()) usage_error("webhook check: --namespace is needed outside a pod");
  KubeAnswer a = kube_request("POST", "/api/v1/namespaces/" + ns + "/pods?dryRun=All", pod_json(ns, image));
  if (a.status == 0) return fail("no answer from the API server: " + a.why);
  if (a.status != 201 && a.status != 200)
    return fail("POST a pod to " + ns + " (dry run): HTTP " + std::to_string(a.status) + ": " + a.body.substr(0, 300));
  std::string injected;
  try {
    injected = pod_injection(a.body);
  } catch (const LoadError& e) {
    return fail(std::string("the API server's answer: ") + e.what());
  }
  if (injected.empty())
    return fail("a pod created in " + ns +
                " is not injected: no annotation resolv-k8s.io/injected (is the namespace labelled "
                "resolv-k8s.io/inject=enabled? does the webhook answer? see its log, "
                "resolv_k8s_webhook_pods_uninjected_total and apiserver_admission_webhook_fail_open_count)");
  printf("a pod created in %s is injected: %s\n", ns.c_str(), injected.c_str());
  return 0;
}

}  // namespace rk8s::tools
