// SPDX-License-Identifier: Apache-2.0
// resolv-k8s inject: where each kind keeps its pod, and what a pod is given.
// yaml-cpp's Node is a handle: `a = b` on a bound handle overwrites what a
// points to, so handles are never assigned here, only map entries.
#include "tools/inject/inject_pod.h"

#include <stdint.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "tools/inject/inject_status.h"
#include "tools/inject/yaml_json.h"
#include "tools/inject/yaml_stream.h"

namespace rk8s::tools {
namespace {

const char kVolume[] = "resolv-k8s";
const char kMountPath[] = "/opt/resolv-k8s";

// The image's entrypoint copies the libraries into /target as user 65534 and
// needs nothing more, so pods under the "restricted" policy admit it. The
// user is the container's own: one the pod sets for its containers (0, say)
// would otherwise be the init container's too, and kubelet refuses to start
// a container as root under runAsNonRoot.
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
  runAsUser: 65534
  runAsGroup: 65534
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

// A container whose LD_PRELOAD ours cannot be added to is refused (and the
// webhook admits its pod as it is, with the reason as a warning): one set by
// valueFrom, read only as the container starts, and, with no env entry of
// its own (`var`), one that an envFrom ConfigMap or Secret may hold (no
// prefix, or one that LD_PRELOAD starts with): kubelet lets env override
// envFrom, so an entry of ours would silently take the place of theirs.
void refuse_preload_set_elsewhere(YAML::Node container, const YAML::Node& var, const std::string& path) {
  if (get(var, "valueFrom")) fail(var, path + ": LD_PRELOAD is set by valueFrom, so ours cannot be added to it");
  if (var) return;
  for (const YAML::Node& source : list_at(container, "envFrom", path)) {
    if (!std::string_view("LD_PRELOAD").starts_with(text_at(source, "prefix"))) continue;
    for (const char* ref : {"configMapRef", "secretRef"})
      if (YAML::Node from = get(source, ref))
        fail(source, path + ": LD_PRELOAD may be set by envFrom (" + ref + " " + text_at(from, "name") +
                         "), so ours cannot be added to it");
  }
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
  refuse_preload_set_elsewhere(container, var, path);
  if (!var) return env.push_back(pair("LD_PRELOAD", "value", library));
  set_text(var, "value", preload_list(library, text_at(var, "value")));
}

// Kubernetes' limits on a pod's search list (1.28 on; 6 and 256 before).
constexpr size_t kMaxSearches = 32;
constexpr size_t kMaxSearchLine = 2048;

// The marker path's first search domain for namespace `ns`.
std::string marker_search(const InjectOptions& options, const std::string& ns) {
  return "search." + ns + "." + options.cluster_domain + "." + options.marker_domain;
}

// The scalars of a list, for what was there before.
std::vector<std::string> scalars(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const YAML::Node& item : list)
    if (item.IsScalar()) out.push_back(item.Scalar());
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The resolver's options written with the node-local cache first: a cache
// that is gone costs a lookup 1 s per server, not glibc's 5 (musl asks
// every nameserver at once and waits for none).
const std::pair<const char*, const char*> kFallbackOptions[] = {{"timeout", "1"}, {"attempts", "2"}};

// Why a pod's DNS is its own to keep, or "" where kubelet gives it cluster
// DNS: on the node's network (the marker path leaves it; ClusterFirstWithHostNet
// asks cluster DNS there, and the library's nameserver stands for it), or
// with a dnsPolicy of its own (Default, None).
std::string dns_kept(const YAML::Node& pod, bool marker) {
  std::string policy = text_at(pod, "dnsPolicy");
  if (text_at(pod, "hostNetwork") == "true" && (marker || policy != "ClusterFirstWithHostNet"))
    return "on the node's network (hostNetwork)";
  if (policy != "" && policy != "ClusterFirst" && policy != "ClusterFirstWithHostNet")
    return "its own DNS (dnsPolicy " + policy + ")";
  return "";
}

// dnsPolicy None with the resolv.conf kubelet writes for ClusterFirst
// (pkg/kubelet/network/dns: the cluster DNS, then dnsConfig's nameservers,
// 3 at most; the cluster's search list, the node's, then dnsConfig's;
// ndots:5 unless dnsConfig sets it), the node-local cache (and what follows
// it on the command line) standing for the cluster DNS, and with
// options.marker the marker in front; timeout:1 and attempts:2 unless the
// pod sets them. Pods on the node's network, or with their own DNS
// (Default, None), keep it. What was added goes into `status`.
void use_nameserver(YAML::Node pod, const std::string& path, const InjectOptions& options, const std::string& ns,
                    std::vector<InjectError>& notes, InjectStatus& status) {
  if (std::string why = dns_kept(pod, options.marker); !why.empty())
    return notes.push_back(InjectError{pod.Mark(), path + ": " + why + ", its DNS left as it is"});
  std::string policy = text_at(pod, "dnsPolicy");
  if (ns.empty())
    fail(pod, path + ": no namespace: the object has no metadata.namespace and --namespace is not given");
  status.set_policy = true;
  status.policy_before = policy;
  pod["dnsPolicy"] = "None";
  YAML::Node dns = map_at(pod, "dnsConfig", path);
  const std::string& domain = options.cluster_domain;
  std::string at = child(path, "dnsConfig");
  std::vector<std::string> had_ns = scalars(list_at(dns, "nameservers", at)),
                           had_search = scalars(list_at(dns, "searches", at));
  std::vector<YAML::Node> ours;
  for (const std::string& ip : options.nameservers) {
    ours.push_back(text_node(ip));
    if (!contains(had_ns, ip)) status.added_nameservers.push_back(ip);
  }
  dns["nameservers"] = prepend(ours, list_at(dns, "nameservers", at), 3);
  std::vector<YAML::Node> cluster;
  if (options.marker) cluster.push_back(text_node(marker_search(options, ns)));
  for (const std::string& d : {ns + ".svc." + domain, "svc." + domain, domain}) cluster.push_back(text_node(d));
  for (const std::string& d : options.host_search)  // kubelet drops the node's repeats
    if (std::none_of(cluster.begin(), cluster.end(), [&](const YAML::Node& c) { return c.Scalar() == d; }))
      cluster.push_back(text_node(d));
  for (const YAML::Node& d : cluster)
    if (!contains(had_search, d.Scalar())) status.added_searches.push_back(d.Scalar());
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
  std::vector<YAML::Node> first;
  if (!find_named(dns_options, "ndots")) {
    first.push_back(pair("ndots", "value", "5"));
    status.added_options.push_back("ndots");
  }
  for (const auto& [name, value] : kFallbackOptions)
    if (!find_named(dns_options, name)) {
      first.push_back(pair(name, "value", value));
      status.added_options.push_back(name);
    }
  if (!first.empty()) dns["options"] = prepend(first, dns_options);
}

// kubelet writes it into resolv.conf as `k8s-autopath:on`; a pod that says
// otherwise keeps its word. Not for a pod whose DNS is its own: its
// resolv.conf stays as written (the option is the library's default).
void add_autopath_option(YAML::Node pod, const std::string& path, InjectStatus& status) {
  YAML::Node options = list_at(map_at(pod, "dnsConfig", path), "options", child(path, "dnsConfig"));
  if (find_named(options, "k8s-autopath")) return;
  options.push_back(pair("k8s-autopath", "value", "on"));
  status.added_options.push_back("k8s-autopath");
}

const PodPlace* place_of(const YAML::Node& object) {
  std::string api_version = text_at(object, "apiVersion"), kind = text_at(object, "kind");
  size_t slash = api_version.find('/');
  std::string_view group = slash == api_version.npos ? "" : std::string_view(api_version).substr(0, slash);
  for (const PodPlace& place : kPodPlaces)
    if (kind == place.kind && std::count(place.groups.begin(), place.groups.end(), group)) return &place;
  return nullptr;
}

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
                std::vector<InjectError>& notes, InjectStatus& status) {
  YAML::Node containers = list_at(pod, "containers", path);
  std::string why = not_for_us(pod);
  if (!why.empty()) return notes.push_back(InjectError{pod.Mark(), path + ": " + why + ", left as it is"});
  if (options.marker) return use_nameserver(pod, path, options, ns, notes, status);
  if (options.image.empty()) fail(pod, path + ": --image is needed for the library (the marker path was asked for before)");
  status.added_library = !find_named(get(pod, "initContainers"), "resolv-k8s-init");
  add_volume(pod, path);
  add_init_container(pod, path, options);
  std::string library = std::string(kMountPath) + "/" + (options.libc == "auto" ? "$LIB" : options.libc) +
                        "/libresolv-k8s.so";
  for (size_t i = 0; i < containers.size(); i++) {
    std::string where = path + ".containers[" + std::to_string(i) + "]";
    if (!containers[i].IsMap()) fail(containers[i], where + ": not a map");
    preload(containers[i], where, library);
  }
  bool cluster_dns = dns_kept(pod, false).empty();
  if (!options.nameservers.empty()) use_nameserver(pod, path, options, ns, notes, status);
  if (cluster_dns) add_autopath_option(pod, path, status);
}

// map[key] without the items `drop` says to drop; the key gone when none is left.
template <typename Drop>
void keep_items(YAML::Node map, const char* key, Drop drop) {
  YAML::Node list = get(map, key);
  if (!list.IsSequence()) return;
  YAML::Node kept(YAML::NodeType::Sequence);
  for (const YAML::Node& item : list)
    if (!drop(item)) kept.push_back(item);
  if (kept.size() == list.size()) return;
  if (kept.size() == 0)
    map.remove(key);
  else
    map[key] = kept;
}

// The library's parts taken out of `pod`, by name.
void undo_library(YAML::Node pod) {
  auto named = [](const std::string& name) { return [name](const YAML::Node& item) { return text_at(item, "name") == name; }; };
  keep_items(pod, "initContainers", named("resolv-k8s-init"));
  keep_items(pod, "volumes", named(kVolume));
  for (YAML::Node container : get(pod, "containers")) {
    if (!container.IsMap()) continue;
    keep_items(container, "volumeMounts", named(kVolume));
    YAML::Node var = find_named(get(container, "env"), "LD_PRELOAD");
    if (!var || get(var, "valueFrom")) continue;
    std::string rest = preload_list("", text_at(var, "value"));  // ":" then the app's own
    if (!rest.empty())
      set_text(var, "value", rest.substr(1));
    else if (var.size() == 2)  // ours alone
      keep_items(container, "env", named("LD_PRELOAD"));
    else
      var.remove("value");
  }
}

// The DNS settings the injection `status` tells of taken out of `pod`.
void undo_dns(YAML::Node pod, const InjectStatus& status) {
  YAML::Node dns = get(pod, "dnsConfig");
  if (dns.IsMap()) {
    auto among = [](const std::vector<std::string>& list) {
      return [&list](const YAML::Node& item) { return item.IsScalar() && contains(list, item.Scalar()); };
    };
    keep_items(dns, "nameservers", among(status.added_nameservers));
    keep_items(dns, "searches", among(status.added_searches));
    keep_items(dns, "options", [&](const YAML::Node& item) { return contains(status.added_options, text_at(item, "name")); });
    if (dns.size() == 0) pod.remove("dnsConfig");
  }
  if (status.set_policy) {
    if (status.policy_before.empty())
      pod.remove("dnsPolicy");
    else
      pod["dnsPolicy"] = text_node(status.policy_before);
  }
}

// The holder's metadata.annotations without `key`; empty maps gone with it.
void drop_annotation(YAML::Node holder, const char* key) {
  YAML::Node meta = get(holder, "metadata");
  YAML::Node annotations = get(meta, "annotations");
  if (!annotations.IsMap()) return;
  annotations.remove(key);
  if (annotations.size() == 0) meta.remove("annotations");
  if (meta.size() == 0) holder.remove("metadata");
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
  // `holder` has the pod spec and its metadata, where the status is kept
  // (the pod's own, or a template's, which every pod made from it carries).
  YAML::Node pod = object, holder = object, deepest = object;  // the last that is there, for messages
  std::string path;
  for (const char* key : place->path) {
    holder.reset(pod);
    pod.reset(map_at(pod, key, path));
    if (pod) deepest.reset(pod);
    path = child(path, key);
  }
  YAML::Node annotations = get(get(holder, "metadata"), "annotations");
  std::string kept = text_at(annotations, kStatusKey);
  InjectStatus before;
  if (!kept.empty() && !parse_status(kept, before))
    fail(annotations, std::string(kStatusKey) + " is not what inject writes; remove it to inject anew");
  if (options.remove) {
    if (kept.empty())
      return notes.push_back(InjectError{object.Mark(), path + ": no " + kStatusKey + " annotation, left as it is"});
    if (before.added_library) undo_library(pod);
    undo_dns(pod, before);
    return drop_annotation(holder, kStatusKey);
  }
  YAML::Node containers = list_at(pod, "containers", path);
  if (containers.size() == 0) fail(containers ? containers : deepest, path + ": no containers");

  std::string ns = text_at(get(object, "metadata"), "namespace");
  if (ns.empty()) ns = options.default_namespace;
  // Injected before: what this run is not given stays as it was.
  InjectOptions run = kept.empty() ? options : with_status_settings(options, before);
  InjectStatus status = status_of(run);
  if (kept.empty()) {
    std::string unchanged = emit_yaml(pod);
    inject_pod(pod, path, run, ns, notes, status);
    if (emit_yaml(pod) != unchanged) holder["metadata"]["annotations"][kStatusKey] = text_node(status_text(status));
    return;
  }
  // The DNS settings taken out and given again (the library's parts are
  // kept and set in place, as a first run sets them): the same result
  // when nothing changed. The marker path takes the library out.
  YAML::Mark mark = pod.Mark();
  YAML::Node fresh = YAML::Clone(pod);
  if (run.marker && before.added_library) undo_library(fresh);
  undo_dns(fresh, before);
  inject_pod(fresh, path, run, ns, notes, status);
  if (!run.marker && !before.marker) status.added_library = before.added_library;
  std::string text = status_text(status);
  if (text == kept && json_of(fresh) == json_of(pod)) return;
  holder[place->path.back()] = fresh;
  holder["metadata"]["annotations"][kStatusKey] = text_node(text);
  std::string changed = settings_changed(before, status);
  notes.push_back(InjectError{mark, path + ": injected before (" + before.version + "), now " +
                                              (changed.empty() ? "written as this version writes it" : changed)});
}

}  // namespace rk8s::tools
