// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/admission.h"

#include <memory>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/inject/inject_pod.h"
#include "tools/inject/yaml_json.h"
#include "tools/webhook/base64.h"
#include "tools/webhook/json_patch.h"

namespace rk8s::tools {
namespace {

// A review of more JSON keys and values than this is refused before it is
// read (the API server then admits the pod as it is: failurePolicy Ignore):
// the object is read (jsoncpp) and edited as a copy (yaml-cpp), a few
// hundred bytes a value, which must fit the webhook's memory beside the
// bodies of its other connections. A pod of the API's own makes has a few
// hundred to a few thousand; the API server stores none over 1.5 MiB.
constexpr size_t kMaxValues = 20000;

// The JSON keys and values in `text` (each starts after '[', '{', ',' or
// ':' outside strings), counting stopped past `limit`; malformed text is
// counted as it comes, and the parser says what is wrong with it.
size_t values_in(std::string_view text, size_t limit) {
  size_t n = 1;
  bool in_string = false;
  for (size_t i = 0; i < text.size() && n <= limit; i++) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') i++;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{' || c == ',' || c == ':') {
      n++;
    }
  }
  return n;
}

Admission refused(const std::string& why) {
  return Admission{Admission::refused, 400, why + "\n", "refused: " + why, "refused"};
}

// Why the object in `request` is left alone, or "" when it is to be
// injected (an object inject_object does not know it leaves as it is).
// `reason`, the metric's word for it ("" for no creation).
std::string reason_to_skip(const Json::Value& request, const Json::Value& object, const char*& reason) {
  reason = "";
  if (json_string(request, "subResource") != "" || json_string(request, "operation") != "CREATE")
    return "not an object's creation";
  reason = "kube_system";
  if (json_string(request, "namespace") == "kube-system") return "in kube-system";
  reason = "no_object";
  if (!object.isObject()) return "no object in the request";
  reason = "opted_out";
  const Json::Value& meta = json_member(object, "metadata");
  for (const char* where : {"labels", "annotations"})
    if (json_string(json_member(meta, where), kInjectKey) == "disabled")
      return std::string("its ") + (where[0] == 'l' ? "label " : "annotation ") + kInjectKey +
             " is disabled";
  return "";
}

// The defaults with what the pod's annotations ask for; "" or why not, and
// `reason`, the metric's word for it.
std::string options_for(const Json::Value& pod, const std::string& ns, InjectOptions& o, const char*& reason) {
  reason = "bad_annotation";
  const Json::Value& annotations = json_member(json_member(pod, "metadata"), "annotations");
  std::string mode = json_string(annotations, kAutopathKey), libc = json_string(annotations, kLibcKey);
  if (!mode.empty() && mode != "option" && mode != "marker")
    return std::string("annotation ") + kAutopathKey + ": '" + mode + "' is neither option nor marker";
  if (!libc.empty() && libc != "auto" && libc != "glibc" && libc != "musl")
    return std::string("annotation ") + kLibcKey + ": '" + libc + "' is none of auto, glibc and musl";
  if (!mode.empty()) o.marker = mode == "marker", o.given.marker = true;
  if (!libc.empty()) o.libc = libc, o.given.libc = true;
  if (!ns.empty()) o.default_namespace = ns;
  reason = "no_nameservers";
  if (o.marker && o.nameservers.empty())
    return "the marker path needs the webhook's --nameserver (the node-local cache, then kube-dns)";
  return "";
}

}  // namespace

Admission admit(std::string_view body, const InjectOptions& defaults) {
  if (values_in(body, kMaxValues) > kMaxValues) {
    std::string why = "over " + std::to_string(kMaxValues) + " JSON keys and values, more than the webhook reads";
    return Admission{Admission::refused, 413, why + "\n", "refused: " + why, "refused"};
  }
  Json::Value review;
  try {
    review = rk8s::JsonDoc(body, "request").root();
  } catch (const rk8s::LoadError& e) {
    return refused(e.what());
  }
  if (json_string(review, "apiVersion") != "admission.k8s.io/v1" || json_string(review, "kind") != "AdmissionReview")
    return refused("not an admission.k8s.io/v1 AdmissionReview");
  const Json::Value& request = json_member(review, "request");
  if (!request.isObject() || !json_member(request, "uid").isString())
    return refused("an AdmissionReview without a request uid");

  Json::Value response(Json::objectValue);
  response["uid"] = request["uid"];
  response["allowed"] = true;
  Json::Value warnings(Json::arrayValue);
  const Json::Value& pod = json_member(request, "object");  // or a workload holding pods
  std::string ns = json_string(request, "namespace");
  InjectOptions options = defaults;
  const char* reason = "";
  std::string skip = reason_to_skip(request, pod, reason);
  if (skip.empty()) skip = options_for(pod, ns, options, reason);
  Admission::Outcome outcome = Admission::unchanged;
  if (skip.empty()) {
    // The API server sends the object without apiVersion and kind at times.
    Json::Value object = pod;
    const Json::Value& kind = json_member(request, "kind");
    if (!object.isMember("kind")) object["kind"] = json_string(kind, "kind");
    if (!object.isMember("apiVersion"))
      object["apiVersion"] = json_string(kind, "group").empty() ? json_string(kind, "version")
                                                         : json_string(kind, "group") + "/" + json_string(kind, "version");
    YAML::Node edited = yaml_of(object);
    std::vector<InjectError> notes;
    try {
      inject_object(edited, options, notes);
      Json::Value patch = json_patch(object, json_of(edited));
      if (patch.size() > 0) {
        response["patchType"] = "JSONPatch";
        response["patch"] = base64(json_text(patch));
        outcome = Admission::patched;
      }
      reason = outcome == Admission::patched ? "" : notes.empty() ? "unchanged" : "left_by_inject";
    } catch (const InjectError& e) {
      notes.push_back(e);
      reason = "inject_error";
    } catch (const YAML::Exception& e) {
      notes.push_back(InjectError{e.mark, e.msg});
      reason = "inject_error";
    }
    for (const InjectError& n : notes) warnings.append("resolv-k8s: " + n.what);
  } else if (skip != "not an object's creation") {
    warnings.append("resolv-k8s: not injected: " + skip);
  }
  if (!warnings.empty()) response["warnings"] = warnings;
  Json::Value out(Json::objectValue);
  out["apiVersion"] = "admission.k8s.io/v1";
  out["kind"] = "AdmissionReview";
  out["response"] = response;
  // A workload's pod has no name yet, only the prefix of one.
  std::string name = json_string(request, "name");
  if (name.empty()) name = json_string(json_member(pod, "metadata"), "generateName") + "*";
  std::string summary = json_string(request, "uid") + " " + ns + "/" + name + " " +
                        json_string(json_member(request, "kind"), "kind") + ": " +
                        (outcome == Admission::patched ? "patched" : "left as it is");
  for (const Json::Value& w : warnings) summary += "; " + w.asString();
  return Admission{outcome, 200, json_text(out) + "\n", summary, reason};
}

}  // namespace rk8s::tools
