// SPDX-License-Identifier: Apache-2.0
// resolv-k8s inject: where each kind keeps its pod, and what a pod is given.
// yaml-cpp's Node is a handle: `a = b` on a bound handle overwrites what a
// points to, so handles are never assigned here, only map entries.
#include "tools/inject/inject_pod.h"

#include <stdint.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/inject/yaml_json.h"
#include "tools/inject/yaml_stream.h"

namespace cli {
namespace {

const char kVolume[] = "resolv-k8s";
const char kMountPath[] = "/opt/resolv-k8s";

// The image's entrypoint copies the libraries into /target as user 65534 and
// needs nothing more, so pods under the "restricted" policy admit it.
const char kInitContainer[] = R"(
name: resolv-k8s-init
image: IMAGE
volumeMounts:
  - {name: resolv-k8s, mountPath: /target}
securityContext:
  allowPrivilegeEscalation: false
  capabilities: {drop: [ALL]}
  readOnlyRootFilesystem: true
  runAsNonRoot: true
  seccompProfile: {type: RuntimeDefault}
)";

// Where a kind keeps its pod spec. The group keeps out other APIs' kinds of
// the same name (a CRD's Job).
struct PodPlace {
  std::string_view kind;
  std::vector<std::string_view> groups;  // "" for v1
  std::vector<const char*> path;
};
const PodPlace kPodPlaces[] = {
    {"Pod", {""}, {"spec"}},
    {"Deployment", {"apps", "extensions"}, {"spec", "template", "spec"}},
    {"StatefulSet", {"apps"}, {"spec", "template", "spec"}},
    {"DaemonSet", {"apps", "extensions"}, {"spec", "template", "spec"}},
    {"ReplicaSet", {"apps", "extensions"}, {"spec", "template", "spec"}},
    {"Job", {"batch"}, {"spec", "template", "spec"}},
    {"CronJob", {"batch"}, {"spec", "jobTemplate", "spec", "template", "spec"}},
};

[[noreturn]] void fail(const YAML::Node& at, const std::string& what) { throw InjectError{at.Mark(), what}; }

// "spec.template" and "spec" -> "spec.template.spec", for messages.
std::string child(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// map[key] without adding it: undefined when missing (a const lookup's
// own missing node throws at any question but IsDefined).
YAML::Node get(const YAML::Node& map, const char* key) {
  if (map.IsMap())
    if (YAML::Node value = map[key]) return value;
  return YAML::Node(YAML::NodeType::Undefined);
}

std::string text_at(const YAML::Node& map, const char* key) {
  YAML::Node value = get(map, key);
  return value.IsScalar() ? value.Scalar() : "";
}

// map[key], created on first use; an error when it is there as something else.
YAML::Node map_at(YAML::Node map, const char* key, const std::string& path) {
  YAML::Node value = map[key];
  if (value.IsDefined() && !value.IsNull() && !value.IsMap()) fail(value, child(path, key) + ": not a map");
  return value;
}

YAML::Node list_at(YAML::Node map, const char* key, const std::string& path) {
  YAML::Node value = map[key];
  if (value.IsDefined() && !value.IsNull() && !value.IsSequence()) fail(value, child(path, key) + ": not a list");
  return value;
}

// The entry of `list` with this name, or an undefined node.
YAML::Node find_named(const YAML::Node& list, const std::string& name) {
  for (YAML::Node item : list)
    if (text_at(item, "name") == name) return item;
  return YAML::Node(YAML::NodeType::Undefined);
}

// map[key] = text, unless it holds that already (as it was quoted).
void set_text(YAML::Node map, const char* key, const std::string& text) {
  if (text_at(map, key) != text) map[key] = text_node(text);
}

// {name: NAME, KEY: VALUE}: an env variable, a DNS option.
YAML::Node pair(const std::string& name, const char* key, const std::string& value) {
  YAML::Node node;
  node["name"] = text_node(name);
  node[key] = text_node(value);
  return node;
}

// `first`, then what `list` holds besides them, at most `limit` items.
YAML::Node prepend(const std::vector<YAML::Node>& first, const YAML::Node& list, size_t limit = SIZE_MAX) {
  YAML::Node out(YAML::NodeType::Sequence);
  for (const YAML::Node& item : first) out.push_back(item);
  for (const YAML::Node& item : list) {
    bool repeated = item.IsScalar() && std::any_of(first.begin(), first.end(), [&](const YAML::Node& f) {
                      return f.Scalar() == item.Scalar();
                    });
    if (!repeated && out.size() < limit) out.push_back(item);
  }
  return out;
}

// Requests and limits alike (Guaranteed, whatever a quota asks for).
void set_resources(YAML::Node container, const InjectOptions& options) {
  for (const char* bound : {"requests", "limits"}) {
    container["resources"][bound]["cpu"] = text_node(options.init_cpu);
    container["resources"][bound]["memory"] = text_node(options.init_memory);
  }
}

// Ours first, before any other init container, with the image asked for,
// and resources when it is new (one injected before keeps its own).
void add_init_container(YAML::Node pod, const std::string& path, const InjectOptions& options) {
  YAML::Node inits = list_at(pod, "initContainers", path);
  YAML::Node ours = find_named(inits, "resolv-k8s-init");
  if (ours) return set_text(ours, "image", options.image);
  YAML::Node container = YAML::Load(kInitContainer);
  container["image"] = text_node(options.image);
  set_resources(container, options);
  pod["initContainers"] = prepend({container}, inits);
}

// Ours is an emptyDir and nothing more: a volume of the pod's own under that
// name would be emptied of what it held, and is refused.
void add_volume(YAML::Node pod, const std::string& path) {
  YAML::Node volumes = list_at(pod, "volumes", path);
  if (YAML::Node volume = find_named(volumes, kVolume)) {
    if (volume.size() == 2 && get(volume, "emptyDir").IsMap()) return;
    fail(volume, child(path, "volumes") + ": a volume of the pod's own is named " + kVolume +
                     ", which inject's emptyDir needs: rename it");
  }
  YAML::Node volume;
  volume["name"] = kVolume;
  volume["emptyDir"] = YAML::Node(YAML::NodeType::Map);
  volumes.push_back(volume);
}

// `library`, then the entries of LD_PRELOAD's `value` that are not ours
// (another libc's build): ld.so takes them in order, split at ':' or ' '.
std::string preload_list(const std::string& library, const std::string& value) {
  std::string out = library;
  for (size_t pos = 0, end; pos < value.size(); pos = end + 1) {
    end = std::min(value.find_first_of(": ", pos), value.size());
    std::string_view entry(value.data() + pos, end - pos);
    if (!entry.empty() && !entry.starts_with(std::string(kMountPath) + "/")) out += ":" + std::string(entry);
  }
  return out;
}

// The volume read-only at kMountPath and `library` preloaded; a container
// mounting something else there is refused (the API server would refuse
// two mounts at one path).
void preload(YAML::Node container, const std::string& path, const std::string& library) {
  YAML::Node mounts = list_at(container, "volumeMounts", path);
  for (const YAML::Node& m : mounts)
    if (text_at(m, "mountPath") == kMountPath && text_at(m, "name") != kVolume)
      fail(m, path + ": volume " + text_at(m, "name") + " is mounted at " + kMountPath +
                  ", where inject's library goes: mount it elsewhere");
  YAML::Node mount = find_named(mounts, kVolume);
  if (!mount) {
    mount.reset(YAML::Node());
    mount["name"] = kVolume;
    mounts.push_back(mount);
  }
  set_text(mount, "mountPath", kMountPath);
  if (text_at(mount, "readOnly") != "true") mount["readOnly"] = true;

  YAML::Node env = list_at(container, "env", path);
  YAML::Node var = find_named(env, "LD_PRELOAD");
  if (!var) return env.push_back(pair("LD_PRELOAD", "value", library));
  if (get(var, "valueFrom")) fail(var, path + ": LD_PRELOAD is set by valueFrom, so ours cannot be added to it");
  set_text(var, "value", preload_list(library, text_at(var, "value")));
}

// Kubernetes' limits on a pod's search list (1.28 on; 6 and 256 before).
constexpr size_t kMaxSearches = 32;
constexpr size_t kMaxSearchLine = 2048;

// The marker path's first search domain for namespace `ns`.
std::string marker_search(const InjectOptions& options, const std::string& ns) {
  return "search." + ns + "." + options.cluster_domain + "." + options.marker_domain;
}

// dnsPolicy None with the resolv.conf kubelet writes for ClusterFirst
// (pkg/kubelet/network/dns: the cluster DNS, then dnsConfig's nameservers,
// 3 at most; the cluster's search list, the node's, then dnsConfig's;
// ndots:5 unless dnsConfig sets it), the node-local cache (and what follows
// it on the command line) standing for the cluster DNS, and with
// options.marker the marker in front. Pods on the node's network, or with
// their own DNS (Default, None), keep it.
void use_nameserver(YAML::Node pod, const std::string& path, const InjectOptions& options, const std::string& ns,
                    std::vector<InjectError>& notes) {
  std::string policy = text_at(pod, "dnsPolicy");
  bool host_network = text_at(pod, "hostNetwork") == "true";
  auto leave = [&](const std::string& why) {
    notes.push_back(InjectError{pod.Mark(), path + ": " + why + ", its DNS left as it is"});
  };
  // The node's network: the marker path leaves it; ClusterFirstWithHostNet
  // asks cluster DNS there, and the library's nameserver stands for it.
  if (host_network && (options.marker || policy != "ClusterFirstWithHostNet"))
    return leave("on the node's network (hostNetwork)");
  YAML::Node searches = get(get(pod, "dnsConfig"), "searches");
  bool injected = policy == "None" && searches.IsSequence() && searches.size() > 0 && searches[0].IsScalar() &&
                  searches[0].Scalar().starts_with("search.") &&
                  searches[0].Scalar().ends_with("." + options.marker_domain);
  if (injected) return leave("the marker path's DNS already");
  if (policy != "" && policy != "ClusterFirst" && policy != "ClusterFirstWithHostNet")
    return leave("its own DNS (dnsPolicy " + policy + ")");
  if (ns.empty())
    fail(pod, path + ": no namespace: the object has no metadata.namespace and --namespace is not given");
  pod["dnsPolicy"] = "None";
  YAML::Node dns = map_at(pod, "dnsConfig", path);
  const std::string& domain = options.cluster_domain;
  std::string at = child(path, "dnsConfig");
  std::vector<YAML::Node> ours;
  for (const std::string& ip : options.nameservers) ours.push_back(text_node(ip));
  dns["nameservers"] = prepend(ours, list_at(dns, "nameservers", at), 3);
  std::vector<YAML::Node> cluster;
  if (options.marker) cluster.push_back(text_node(marker_search(options, ns)));
  for (const std::string& d : {ns + ".svc." + domain, "svc." + domain, domain}) cluster.push_back(text_node(d));
  for (const std::string& d : options.host_search)  // kubelet drops the node's repeats
    if (std::none_of(cluster.begin(), cluster.end(), [&](const YAML::Node& c) { return c.Scalar() == d; }))
      cluster.push_back(text_node(d));
  YAML::Node list = prepend(cluster, list_at(dns, "searches", at));
  size_t line = 0;
  for (const YAML::Node& d : list) line += (line ? 1 : 0) + (d.IsScalar() ? d.Scalar().size() : 0);
  if (list.size() > kMaxSearches)
    fail(pod, at + ".searches: " + std::to_string(list.size()) + " domains, over Kubernetes' limit of " +
                  std::to_string(kMaxSearches) + " (6 before 1.28)");
  if (line > kMaxSearchLine)
    fail(pod, at + ".searches: " + std::to_string(line) + " characters, over Kubernetes' limit of " +
                  std::to_string(kMaxSearchLine) + " (256 before 1.28)");
  dns["searches"] = list;
  YAML::Node dns_options = list_at(dns, "options", at);
  if (!find_named(dns_options, "ndots")) dns["options"] = prepend({pair("ndots", "value", "5")}, dns_options);
}

// kubelet writes it into resolv.conf as `k8s-autopath:on`; a pod that says
// otherwise keeps its word.
void add_autopath_option(YAML::Node pod, const std::string& path) {
  YAML::Node options = list_at(map_at(pod, "dnsConfig", path), "options", child(path, "dnsConfig"));
  if (!find_named(options, "k8s-autopath")) options.push_back(pair("k8s-autopath", "value", "on"));
}

const PodPlace* place_of(const YAML::Node& object) {
  std::string api_version = text_at(object, "apiVersion"), kind = text_at(object, "kind");
  size_t slash = api_version.find('/');
  std::string_view group = slash == api_version.npos ? "" : std::string_view(api_version).substr(0, slash);
  for (const PodPlace& place : kPodPlaces)
    if (kind == place.kind && std::count(place.groups.begin(), place.groups.end(), group)) return &place;
  return nullptr;
}

// The pod spec as it was before inject, kept with the object for --remove.
const char kOriginal[] = "resolv-k8s.io/original-pod-spec";

// Everything inject gives a pod spec.
// Why a pod gets nothing at all, or "": one for Windows nodes, and one on
// the node's network with the node's DNS (kubelet gives it no cluster DNS).
std::string not_for_us(const YAML::Node& pod) {
  if (text_at(get(pod, "os"), "name") == "windows" ||
      text_at(get(pod, "nodeSelector"), "kubernetes.io/os") == "windows")
    return "for Windows nodes";
  if (text_at(pod, "hostNetwork") == "true" && text_at(pod, "dnsPolicy") != "ClusterFirstWithHostNet")
    return "on the node's network with the node's DNS (hostNetwork)";
  return "";
}

void inject_pod(YAML::Node pod, const std::string& path, const InjectOptions& options, const std::string& ns,
                std::vector<InjectError>& notes) {
  YAML::Node containers = list_at(pod, "containers", path);
  std::string why = not_for_us(pod);
  if (!why.empty()) return notes.push_back(InjectError{pod.Mark(), path + ": " + why + ", left as it is"});
  if (options.marker) {
    if (find_named(get(pod, "initContainers"), "resolv-k8s-init"))
      notes.push_back(InjectError{pod.Mark(), path + ": the library injected before stays (--remove takes it out)"});
    return use_nameserver(pod, path, options, ns, notes);
  }
  add_volume(pod, path);
  add_init_container(pod, path, options);
  std::string library = std::string(kMountPath) + "/" + (options.libc == "auto" ? "$LIB" : options.libc) +
                        "/libresolv-k8s.so";
  for (size_t i = 0; i < containers.size(); i++) {
    std::string where = path + ".containers[" + std::to_string(i) + "]";
    if (!containers[i].IsMap()) fail(containers[i], where + ": not a map");
    preload(containers[i], where, library);
  }
  if (!options.nameservers.empty()) use_nameserver(pod, path, options, ns, notes);
  add_autopath_option(pod, path);
}

// --remove: the pod spec kept in the annotation back in place of `pod`
// (parent[key]), and the annotation gone (the map with it, when empty).
void restore(YAML::Node object, YAML::Node parent, const char* key, const std::string& path,
             std::vector<InjectError>& notes) {
  YAML::Node annotations = get(get(object, "metadata"), "annotations");
  std::string kept = text_at(annotations, kOriginal);
  if (kept.empty()) {
    notes.push_back(InjectError{object.Mark(), path + ": no " + kOriginal + " annotation, left as it is"});
    return;
  }
  try {
    parent[key] = yaml_of(rk8s::JsonDoc(kept, kOriginal).root());
  } catch (const rk8s::LoadError& e) {
    fail(annotations, std::string(kOriginal) + " is not the JSON inject wrote: " + e.what());
  }
  annotations.remove(kOriginal);
  if (annotations.size() == 0) object["metadata"].remove("annotations");
}

// `node` as the annotation would keep it, JSON text, where the settings
// worked out anew come from: both sides of a comparison alike.
Json::Value as_kept(const YAML::Node& node) {
  return rk8s::JsonDoc(json_text(Json::Value(json_of(node))), kOriginal).root();
}

// The DNS settings the pod had before it was first injected (the spec
// kept in the annotation).
void dns_as_it_was(YAML::Node pod, const std::string& kept) {
  YAML::Node original;
  try {
    original.reset(yaml_of(rk8s::JsonDoc(kept, kOriginal).root()));
  } catch (const rk8s::LoadError& e) {
    fail(pod, std::string(kOriginal) + " is not the JSON inject wrote: " + e.what());
  }
  for (const char* key : {"dnsPolicy", "dnsConfig"}) {
    if (YAML::Node value = get(original, key))
      pod[key] = value;
    else if (pod.IsMap())
      pod.remove(key);
  }
}

}  // namespace

void inject_object(YAML::Node object, const InjectOptions& options, std::vector<InjectError>& notes) {
  // What `kubectl get -o yaml` prints: a List, each of its items injected.
  if (text_at(object, "kind") == "List" && text_at(object, "apiVersion") == "v1") {
    for (YAML::Node item : list_at(object, "items", ""))
      if (item.IsMap()) inject_object(item, options, notes);
    return;
  }
  const PodPlace* place = place_of(object);
  if (!place) {
    // A kind of another API with a pod template (an Argo Rollout, say):
    // its pods get nothing, which deserves a word.
    if (get(get(get(get(object, "spec"), "template"), "spec"), "containers"))
      notes.push_back(InjectError{object.Mark(), text_at(object, "kind") + " (" + text_at(object, "apiVersion") +
                                                     "): not a kind inject knows, left as it is; the webhook "
                                                     "injects the pods it creates"});
    return;
  }
  YAML::Node pod = object, parent = object, deepest = object;  // the last that is there, for messages
  std::string path;
  for (const char* key : place->path) {
    parent.reset(pod);
    pod.reset(map_at(pod, key, path));
    if (pod) deepest.reset(pod);
    path = child(path, key);
  }
  if (options.remove) return restore(object, parent, place->path.back(), path, notes);
  YAML::Node containers = list_at(pod, "containers", path);
  if (containers.size() == 0) fail(containers ? containers : deepest, path + ": no containers");

  std::string ns = text_at(get(object, "metadata"), "namespace");
  if (ns.empty()) ns = options.default_namespace;
  std::string before = emit_yaml(pod);
  Json::Value original = json_of(pod);
  std::string kept = text_at(get(get(object, "metadata"), "annotations"), kOriginal);
  if (kept.empty()) {
    inject_pod(pod, path, options, ns, notes);
  } else {
    // Injected before: the DNS settings are worked out anew from the pod as
    // it was, so that they follow this run's flags, and replace the pod's
    // where they differ.
    YAML::Node fresh = YAML::Clone(pod);
    dns_as_it_was(fresh, kept);
    inject_pod(fresh, path, options, ns, notes);
    std::vector<InjectError> again;
    inject_pod(pod, path, options, ns, again);
    for (const char* key : {"dnsPolicy", "dnsConfig"}) {
      YAML::Node want = get(fresh, key);
      if (json_of(want) == as_kept(get(pod, key))) continue;
      if (want)
        pod[key] = want;
      else
        pod.remove(key);
    }
  }
  // The first injection keeps what it changed; a later one finds it there.
  if (emit_yaml(pod) != before && text_at(get(get(object, "metadata"), "annotations"), kOriginal).empty())
    object["metadata"]["annotations"][kOriginal] = text_node(json_text(original));
}

}  // namespace cli
