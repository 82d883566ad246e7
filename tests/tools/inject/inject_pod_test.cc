// SPDX-License-Identifier: Apache-2.0
// inject's edit of one object: where each kind keeps its pod, what a pod
// is given (the library, kubelet's DNS pointing at the node-local cache,
// the marker path), the pods left alone and the objects refused, what a
// later run keeps and says it changed, and --remove giving the object back.
#include "tools/inject/inject_pod.h"

#include <gtest/gtest.h>

#include "resolv-k8s.h"
#include "tests/tools/fixture.h"
#include "tools/inject/yaml_stream.h"

namespace rk8s::tools {
namespace {

using test::at;
using test::injected;
using test::options_of;

const Args kLibrary = {"--image", test::kImage};
const Args kDns = {"--image", test::kImage, "--nameserver", "169.254.20.10,10.96.0.10"};
const Args kMarker = {"--autopath", "marker", "--nameserver", "169.254.20.10,10.96.0.10"};
const char kStatus[] = "/metadata/annotations/resolv-k8s.io~1injected";

// A Pod in namespace shop with one app container, and `spec` after it.
std::string pod(const std::string& spec = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n"
         "  containers: [{name: app, image: app:1}]\n" +
         spec;
}

// A Pod in namespace shop whose app container has `lines` after its name.
std::string pod_with_app(const std::string& lines) {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n  - name: app\n" +
         lines;
}

const std::string kPodTemplate = "  template:\n    spec:\n      containers: [{name: app, image: app:1}]\n";
std::string workload(const std::string& api_version, const std::string& kind) {
  return "apiVersion: " + api_version + "\nkind: " + kind + "\nmetadata: {name: web, namespace: shop}\nspec:\n" +
         kPodTemplate;
}

std::string notes_text(const std::vector<InjectError>& notes) {
  std::string out;
  for (const InjectError& n : notes) out += (out.empty() ? "" : "\n") + n.what;
  return out;
}

struct KindCase {
  std::string yaml;
  std::string pod;  // where the pod spec is; "" when the object is left alone
  std::string note;
};

TEST(InjectObject, EachKindHasItsPodWhereItsApiKeepsIt) {
  const KindCase cases[] = {
      {pod(), "/spec", ""},
      {workload("apps/v1", "Deployment"), "/spec/template/spec", ""},
      {workload("extensions/v1beta1", "Deployment"), "/spec/template/spec", ""},
      {workload("apps/v1", "StatefulSet"), "/spec/template/spec", ""},
      {workload("apps/v1", "DaemonSet"), "/spec/template/spec", ""},
      {workload("apps/v1", "ReplicaSet"), "/spec/template/spec", ""},
      {workload("batch/v1", "Job"), "/spec/template/spec", ""},
      {"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: web, namespace: shop}\nspec:\n  jobTemplate:\n"
       "    spec:\n      template:\n        spec:\n          containers: [{name: app, image: app:1}]\n",
       "/spec/jobTemplate/spec/template/spec", ""},
      // What kubectl get -o yaml prints: each item of the List.
      {"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a, namespace: shop}\n"
       "  spec: {containers: [{name: app, image: app:1}]}\n- apiVersion: v1\n  kind: ConfigMap\n",
       "/items/0/spec", ""},
      // Another API's kind of the same name, or with a pod template: left,
      // with a word when it holds pods.
      {workload("example.com/v1", "Job"), "",
       "Job (example.com/v1): not a kind inject knows, left as it is; the webhook injects the pods it creates"},
      {workload("argoproj.io/v1alpha1", "Rollout"), "",
       "Rollout (argoproj.io/v1alpha1): not a kind inject knows, left as it is; the webhook injects the pods it "
       "creates"},
      {"apiVersion: apps/v1\nkind: Pod\nspec: {containers: [{name: app}]}\n", "", ""},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n", "", ""},
  };
  for (const KindCase& c : cases) {
    SCOPED_TRACE(c.yaml);
    std::vector<InjectError> notes;
    Json::Value out = injected(c.yaml, options_of(kDns), &notes);
    EXPECT_EQ(c.note, notes_text(notes));
    if (c.pod.empty()) {
      EXPECT_EQ(json_of(YAML::Load(c.yaml)), out);
      continue;
    }
    EXPECT_EQ("\"resolv-k8s-init\"", at(out, c.pod + "/initContainers/0/name"));
    EXPECT_EQ("\"None\"", at(out, c.pod + "/dnsPolicy"));
    // The status beside the pod spec: on the template, which every pod
    // made from it carries.
    std::string holder = c.pod.substr(0, c.pod.rfind('/'));
    EXPECT_NE("(none)", at(out, holder + kStatus));
  }
}

struct GivenCase {
  std::string yaml;
  Args flags;
  std::string pointer;
  std::string json;
};

TEST(InjectObject, WhatAPodIsGiven) {
  const std::string init = "/spec/initContainers/0";
  const std::string dns = "/spec/dnsConfig";
  const GivenCase cases[] = {
      // The library: an init container filling a volume, mounted read-only
      // in every app container and preloaded, the build of each program's libc.
      {pod(), kLibrary, init,
       "{\"image\":\"registry.example.com/dns/libresolv-k8s-init:1\",\"name\":\"resolv-k8s-init\",\"resources\":{"
       "\"limits\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"},\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}},"
       "\"securityContext\":{\"allowPrivilegeEscalation\":false,\"capabilities\":{\"drop\":[\"ALL\"]},"
       "\"readOnlyRootFilesystem\":true,\"runAsGroup\":65534,\"runAsNonRoot\":true,\"runAsUser\":65534,"
       "\"seccompProfile\":{\"type\":\"RuntimeDefault\"}},"
       "\"volumeMounts\":[{\"mountPath\":\"/target\",\"name\":\"resolv-k8s\"}]}"},
      // A pod run as root leaves the init container its own user: kubelet
      // refuses runAsNonRoot for uid 0.
      {pod("  securityContext: {runAsUser: 0, runAsGroup: 0}\n"), kLibrary, init + "/securityContext/runAsUser",
       "65534"},
      {pod("  securityContext: {runAsUser: 0, runAsGroup: 0}\n"), kLibrary, init + "/securityContext/runAsGroup",
       "65534"},
      {pod(),
       {"--image", test::kImage, "--init-cpu", "50m", "--init-memory", "32Mi"},
       init + "/resources",
       "{\"limits\":{\"cpu\":\"50m\",\"memory\":\"32Mi\"},\"requests\":{\"cpu\":\"50m\",\"memory\":\"32Mi\"}}"},
      {pod(), kLibrary, "/spec/volumes", "[{\"emptyDir\":{},\"name\":\"resolv-k8s\"}]"},
      {pod(), kLibrary, "/spec/containers/0/volumeMounts",
       "[{\"mountPath\":\"/opt/resolv-k8s\",\"name\":\"resolv-k8s\",\"readOnly\":true}]"},
      {pod(), kLibrary, "/spec/containers/0/env",
       "[{\"name\":\"LD_PRELOAD\",\"value\":\"/opt/resolv-k8s/$LIB/libresolv-k8s.so\"}]"},
      {pod(),
       {"--image", test::kImage, "--libc", "musl"},
       "/spec/containers/0/env/0/value",
       "\"/opt/resolv-k8s/musl/libresolv-k8s.so\""},
      // Ours first; what the pod preloads after it, ld.so's separators read.
      {pod("  initContainers: [{name: migrate, image: m:1}]\n"), kLibrary, "/spec/initContainers/1/name",
       "\"migrate\""},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n  - name: app\n"
       "    env: [{name: LD_PRELOAD, value: /usr/lib/libjemalloc.so /usr/lib/libz.so}]\n",
       kLibrary, "/spec/containers/0/env/0/value",
       "\"/opt/resolv-k8s/$LIB/libresolv-k8s.so:/usr/lib/libjemalloc.so:/usr/lib/libz.so\""},
      // An envFrom that cannot hold LD_PRELOAD (another prefix), or one an
      // env entry of the pod's own overrides already: ours goes in env.
      {pod_with_app("    envFrom: [{prefix: APP_, configMapRef: {name: a}}]\n"), kLibrary, "/spec/containers/0/env",
       "[{\"name\":\"LD_PRELOAD\",\"value\":\"/opt/resolv-k8s/$LIB/libresolv-k8s.so\"}]"},
      {pod_with_app("    envFrom: [{secretRef: {name: s}}]\n    env: [{name: LD_PRELOAD, value: /usr/lib/libz.so}]\n"),
       kLibrary, "/spec/containers/0/env/0/value", "\"/opt/resolv-k8s/$LIB/libresolv-k8s.so:/usr/lib/libz.so\""},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n"
       "  - {name: a, image: a:1}\n  - {name: b, image: b:1, volumeMounts: [{name: data, mountPath: /data}]}\n",
       kLibrary, "/spec/containers/1/volumeMounts",
       "[{\"mountPath\":\"/data\",\"name\":\"data\"},{\"mountPath\":\"/opt/resolv-k8s\",\"name\":\"resolv-k8s\","
       "\"readOnly\":true}]"},
      // Without --nameserver the pod's DNS stays, the option added.
      {pod(), kLibrary, "/spec/dnsPolicy", "(none)"},
      {pod(), kLibrary, dns, "{\"options\":[{\"name\":\"k8s-autopath\",\"value\":\"on\"}]}"},
      {pod("  dnsConfig: {options: [{name: k8s-autopath, value: \"off\"}]}\n"), kLibrary, dns + "/options",
       "[{\"name\":\"k8s-autopath\",\"value\":\"off\"}]"},
      // With --nameserver: what kubelet writes for ClusterFirst, the cache
      // standing for the cluster DNS, timeout:1 attempts:2.
      {pod(), kDns, "/spec/dnsPolicy", "\"None\""},
      {pod(), kDns, dns,
       "{\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\"],\"options\":[{\"name\":\"ndots\",\"value\":\"5\"},"
       "{\"name\":\"timeout\",\"value\":\"1\"},{\"name\":\"attempts\",\"value\":\"2\"},{\"name\":\"k8s-autopath\","
       "\"value\":\"on\"}],\"searches\":[\"shop.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\"]}"},
      {pod("  dnsPolicy: ClusterFirstWithHostNet\n  hostNetwork: true\n"), kDns, "/spec/dnsPolicy", "\"None\""},
      {pod(),
       {"--image", test::kImage, "--nameserver", "169.254.20.10", "--cluster-domain", "corp.local"},
       dns + "/searches",
       "[\"shop.svc.corp.local\",\"svc.corp.local\",\"corp.local\"]"},
      // The node's search domains after the cluster's, kubelet's repeats dropped.
      {pod(),
       {"--image", test::kImage, "--nameserver", "169.254.20.10", "--host-search", "ec2.internal,cluster.local"},
       dns + "/searches",
       "[\"shop.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\",\"ec2.internal\"]"},
      // The pod's own dnsConfig after ours: nameservers to kubelet's 3, its
      // searches, its options kept over ours.
      {pod("  dnsConfig:\n    nameservers: [1.1.1.1, 8.8.8.8]\n    searches: [corp.example, svc.cluster.local]\n"
           "    options: [{name: ndots, value: \"2\"}, {name: timeout, value: \"3\"}, {name: edns0}]\n"),
       kDns, dns,
       "{\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\",\"1.1.1.1\"],\"options\":[{\"name\":\"attempts\","
       "\"value\":\"2\"},{\"name\":\"ndots\",\"value\":\"2\"},{\"name\":\"timeout\",\"value\":\"3\"},{\"name\":"
       "\"edns0\"},{\"name\":\"k8s-autopath\",\"value\":\"on\"}],\"searches\":[\"shop.svc.cluster.local\","
       "\"svc.cluster.local\",\"cluster.local\",\"corp.example\"]}"},
      // The namespace of the object, else --namespace's.
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: app}]}\n",
       {"--image", test::kImage, "--nameserver", "169.254.20.10"},
       dns + "/searches/0",
       "\"default.svc.cluster.local\""},
      // The marker path: the DNS alone, the marker first.
      {pod(), kMarker, "/spec/initContainers", "(none)"},
      {pod(), kMarker, "/spec/containers/0", "{\"image\":\"app:1\",\"name\":\"app\"}"},
      {pod(), kMarker, dns,
       "{\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\"],\"options\":[{\"name\":\"ndots\",\"value\":\"5\"},"
       "{\"name\":\"timeout\",\"value\":\"1\"},{\"name\":\"attempts\",\"value\":\"2\"}],\"searches\":["
       "\"search.shop.cluster.local.ap.k8s.io\",\"shop.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\"]}"},
      {pod(),
       {"--autopath", "marker", "--nameserver", "169.254.20.10", "--marker", "ap.example", "--host-search",
        "ec2.internal"},
       dns + "/searches",
       "[\"search.shop.cluster.local.ap.example\",\"shop.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\","
       "\"ec2.internal\"]"},
      // The status: what was asked, and what was added that was not there.
      {pod("  dnsPolicy: ClusterFirst\n  dnsConfig: {nameservers: [169.254.20.10], searches: [cluster.local]}\n"), kDns,
       kStatus,
       "\"{\\\"added\\\":{\\\"dnsPolicy\\\":\\\"ClusterFirst\\\",\\\"library\\\":true,\\\"nameservers\\\":["
       "\\\"10.96.0.10\\\"],\\\"options\\\":[\\\"ndots\\\",\\\"timeout\\\",\\\"attempts\\\",\\\"k8s-autopath\\\"],"
       "\\\"searches\\\":[\\\"shop.svc.cluster.local\\\",\\\"svc.cluster.local\\\"]},\\\"autopath\\\":\\\"option\\\","
       "\\\"clusterDomain\\\":\\\"cluster.local\\\",\\\"image\\\":\\\"registry.example.com/dns/"
       "libresolv-k8s-init:1\\\","
       "\\\"libc\\\":\\\"auto\\\",\\\"nameservers\\\":[\\\"169.254.20.10\\\",\\\"10.96.0.10\\\"],\\\"version\\\":"
       "\\\"" RK8S_VERSION "\\\"}\""},
  };
  for (const GivenCase& c : cases) {
    SCOPED_TRACE(c.yaml + testing::PrintToString(c.flags));
    InjectOptions o = options_of(c.flags);
    o.default_namespace = "default";
    EXPECT_EQ(c.json, at(injected(c.yaml, o), c.pointer)) << c.pointer;
  }
}

struct LeftCase {
  std::string yaml;
  Args flags;
  std::string note;
  bool changed;  // the library given all the same, the pod's resolv.conf as written
};

TEST(InjectObject, PodsLeftAloneSayWhy) {
  const LeftCase cases[] = {
      {pod("  hostNetwork: true\n"), kDns,
       "spec: on the node's network with the node's DNS (hostNetwork), left as it is", false},
      {pod("  os: {name: windows}\n"), kDns, "spec: for Windows nodes, left as it is", false},
      {pod("  nodeSelector: {kubernetes.io/os: windows}\n"), kMarker, "spec: for Windows nodes, left as it is", false},
      {pod("  dnsPolicy: Default\n"), kDns, "spec: its own DNS (dnsPolicy Default), its DNS left as it is", true},
      {pod("  dnsPolicy: None\n  dnsConfig: {nameservers: [1.1.1.1]}\n"), kMarker,
       "spec: its own DNS (dnsPolicy None), its DNS left as it is", false},
      {pod("  dnsPolicy: None\n  dnsConfig: {nameservers: [1.1.1.1], options: [{name: ndots, value: '2'}]}\n"), kDns,
       "spec: its own DNS (dnsPolicy None), its DNS left as it is", true},
      // The marker path is the cluster DNS's: not on the node's network.
      {pod("  hostNetwork: true\n  dnsPolicy: ClusterFirstWithHostNet\n"), kMarker,
       "spec: on the node's network (hostNetwork), its DNS left as it is", false},
  };
  for (const LeftCase& c : cases) {
    SCOPED_TRACE(c.yaml);
    std::vector<InjectError> notes;
    Json::Value out = injected(c.yaml, options_of(c.flags), &notes);
    EXPECT_EQ(c.note, notes_text(notes));
    const Json::Value original = json_of(YAML::Load(c.yaml));
    for (const char* pointer :
         {"/spec/dnsPolicy", "/spec/dnsConfig/nameservers", "/spec/dnsConfig/searches", "/spec/dnsConfig/options"})
      EXPECT_EQ(at(original, pointer), at(out, pointer)) << pointer;
    EXPECT_EQ(c.changed, original != out);
  }
}

struct RefusedCase {
  std::string yaml;
  Args flags;
  std::string error;
  int line;  // of the node named, from 0
};

std::string searches(size_t count, size_t length) {
  std::string out = "  dnsConfig:\n    searches:\n";
  for (size_t i = 0; i < count; i++) out += "    - " + std::string(length - 2, 'a') + std::to_string(i % 10) + "x\n";
  return out;
}

TEST(InjectObject, ObjectsThatCannotBeChangedAsWrittenAreRefused) {
  const RefusedCase cases[] = {
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec: {}\n", kLibrary, "spec: no containers",
       3},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\n", kLibrary, "spec: no containers", 0},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template: []\n", kLibrary,
       "spec.template: not a map", 4},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: {name: app}\n", kLibrary,
       "spec.containers: not a list", 4},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [app]\n", kLibrary,
       "spec.containers[0]: not a map", 4},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: app}]}\n", kDns,
       "spec: no namespace: the object has no metadata.namespace and --namespace is not given", 3},
      {pod("  volumes:\n  - {name: resolv-k8s, configMap: {name: c}}\n"), kLibrary,
       "spec.volumes: a volume of the pod's own is named resolv-k8s, which inject's emptyDir needs: rename it", 6},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: app\n"
       "    volumeMounts: [{name: data, mountPath: /opt/resolv-k8s}]\n",
       kLibrary,
       "spec.containers[0]: volume data is mounted at /opt/resolv-k8s, where inject's library goes: mount it "
       "elsewhere",
       6},
      {pod_with_app("    env:\n    - name: LD_PRELOAD\n      valueFrom: {configMapKeyRef: {name: c, key: k}}\n"),
       kLibrary, "spec.containers[0]: LD_PRELOAD is set by valueFrom, so ours cannot be added to it", 7},
      // An envFrom source whose keys may hold LD_PRELOAD, which an env
      // entry of ours would override: either kind, no prefix or a prefix of it.
      {pod_with_app("    envFrom: [{configMapRef: {name: app-env}}]\n"), kLibrary,
       "spec.containers[0]: LD_PRELOAD may be set by envFrom (configMapRef app-env), so ours cannot be added to it",
       6},
      {pod_with_app("    envFrom:\n    - prefix: APP_\n      configMapRef: {name: a}\n    - secretRef: {name: creds}\n"),
       kLibrary,
       "spec.containers[0]: LD_PRELOAD may be set by envFrom (secretRef creds), so ours cannot be added to it", 9},
      {pod_with_app("    envFrom: [{prefix: LD_, secretRef: {name: s}}]\n"), kLibrary,
       "spec.containers[0]: LD_PRELOAD may be set by envFrom (secretRef s), so ours cannot be added to it", 6},
      {pod_with_app("    envFrom: {configMapRef: {name: c}}\n"), kLibrary, "spec.containers[0].envFrom: not a list", 6},
      {pod("  dnsConfig: 1.1.1.1\n"), kDns, "spec.dnsConfig: not a map", 5},
      {pod("  dnsConfig: {searches: corp.example}\n"), kDns, "spec.dnsConfig.searches: not a list", 5},
      // Kubernetes' bounds on the search list: 32 domains, 2048 characters.
      {pod(searches(30, 10)), kDns, "spec.dnsConfig.searches: 33 domains, over Kubernetes' limit of 32 (6 before 1.28)",
       4},
      {pod(searches(1, 1994)), kDns,
       "spec.dnsConfig.searches: 2049 characters, over Kubernetes' limit of 2048 (256 before 1.28)", 4},
      {"apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations: {resolv-k8s.io/injected: yes}\nspec:\n"
       "  containers: [{name: app}]\n",
       kLibrary, "resolv-k8s.io/injected is not what inject writes; remove it to inject anew", 4},
  };
  // At the bounds: the cluster's three and 29 of the pod's; a line of
  // 2048 (22 + 17 + 13 + 1993 and 3 spaces).
  for (const std::string& yaml : {pod(searches(29, 10)), pod(searches(1, 1993))})
    EXPECT_EQ("\"None\"", at(injected(yaml, options_of(kDns)), "/spec/dnsPolicy"));
  for (const RefusedCase& c : cases) {
    SCOPED_TRACE(c.yaml);
    try {
      injected(c.yaml, options_of(c.flags));
      ADD_FAILURE() << "not refused";
    } catch (const InjectError& e) {
      EXPECT_EQ(c.error, e.what);
      EXPECT_EQ(c.line, e.mark.line);
    }
  }
}

// `yaml` injected with `first`, then again with `then`.
struct LaterCase {
  std::string yaml;
  Args first, then;
  std::string pointer, json;
  std::string note;
};

TEST(InjectObject, ALaterRunKeepsWhatItIsNotGivenAndSaysWhatChanged) {
  const std::string before = "spec: injected before (" RK8S_VERSION "), now ";
  const std::string dns = "/spec/dnsConfig";
  const LaterCase cases[] = {
      {pod(), kDns, kDns, "", "", ""},
      {pod(), kMarker, kMarker, "", "", ""},
      // Not given the image: the one before, nameservers given anew.
      {pod(),
       kDns,
       {"--nameserver", "10.0.0.10"},
       "/spec/initContainers/0/image",
       "\"" + std::string(test::kImage) + "\"",
       before + "nameservers [169.254.20.10 10.96.0.10] -> [10.0.0.10]"},
      {pod(),
       kDns,
       {"--nameserver", "10.0.0.10"},
       dns + "/nameservers",
       "[\"10.0.0.10\"]",
       before + "nameservers [169.254.20.10 10.96.0.10] -> [10.0.0.10]"},
      {pod(),
       kDns,
       {"--image", "registry.example.com/dns/libresolv-k8s-init:2"},
       "/spec/initContainers/0/image",
       "\"registry.example.com/dns/libresolv-k8s-init:2\"",
       before + "image registry.example.com/dns/libresolv-k8s-init:1 -> registry.example.com/dns/libresolv-k8s-init:2"},
      // The pod's own DNS kept through both runs, ours given again.
      {pod("  dnsConfig: {searches: [corp.example], options: [{name: ndots, value: \"2\"}]}\n"),
       kDns,
       {"--host-search", "ec2.internal"},
       dns,
       "{\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\"],\"options\":[{\"name\":\"timeout\",\"value\":\"1\"},"
       "{\"name\":\"attempts\",\"value\":\"2\"},{\"name\":\"ndots\",\"value\":\"2\"},{\"name\":\"k8s-autopath\","
       "\"value\":\"on\"}],\"searches\":[\"shop.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\","
       "\"ec2.internal\",\"corp.example\"]}",
       before + "node search domains [] -> [ec2.internal]"},
      // The DNS taken out with '': kubelet's again, the library kept.
      {pod(),
       kDns,
       {"--nameserver", ""},
       "/spec/dnsConfig",
       "{\"options\":[{\"name\":\"k8s-autopath\",\"value\":\"on\"}]}",
       before + "nameservers [169.254.20.10 10.96.0.10] -> []"},
      {pod(), kLibrary, kDns, "/spec/dnsPolicy", "\"None\"", before + "nameservers [] -> [169.254.20.10 10.96.0.10]"},
      // The init container injected before keeps its resources.
      {pod(),
       {"--image", test::kImage, "--init-cpu", "50m"},
       {"--image", "other/init:1"},
       "/spec/initContainers/0/resources/limits/cpu",
       "\"50m\"",
       before + "image registry.example.com/dns/libresolv-k8s-init:1 -> other/init:1"},
      // The marker path takes the library out; the library's path, the marker.
      {pod(),
       kDns,
       {"--autopath", "marker"},
       "/spec/containers/0",
       "{\"image\":\"app:1\",\"name\":\"app\"}",
       before + "autopath option -> marker; image registry.example.com/dns/libresolv-k8s-init:1 -> -; libc auto -> -"},
      {pod(),
       kDns,
       {"--autopath", "marker"},
       dns + "/searches/0",
       "\"search.shop.cluster.local.ap.k8s.io\"",
       before + "autopath option -> marker; image registry.example.com/dns/libresolv-k8s-init:1 -> -; libc auto -> -"},
      {pod(),
       kMarker,
       {"--autopath", "option", "--image", test::kImage},
       dns + "/searches",
       "[\"shop.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\"]",
       before + "autopath marker -> option; image - -> registry.example.com/dns/libresolv-k8s-init:1; libc - -> auto"},
  };
  for (const LaterCase& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.first) + " then " + testing::PrintToString(c.then));
    Json::Value first = injected(c.yaml, options_of(c.first));
    std::vector<InjectError> notes;
    Json::Value then = injected(emit_yaml(yaml_of(first)), options_of(c.then), &notes);
    EXPECT_EQ(c.note, notes_text(notes));
    if (c.pointer.empty())
      EXPECT_EQ(first, then);
    else
      EXPECT_EQ(c.json, at(then, c.pointer));
  }
  // The marker path had no image: the library's path needs one.
  Json::Value marker = injected(pod(), options_of(kMarker));
  try {
    injected(emit_yaml(yaml_of(marker)), options_of({"--autopath", "option"}));
    ADD_FAILURE() << "not refused";
  } catch (const InjectError& e) {
    EXPECT_EQ("spec: --image is needed for the library (the marker path was asked for before)", e.what);
  }
}

TEST(InjectObject, RemoveGivesTheObjectBack) {
  const std::string objects[] = {
      pod(),
      pod("  dnsPolicy: ClusterFirst\n  dnsConfig:\n    nameservers: [1.1.1.1]\n    searches: [corp.example, "
          "lab.example]\n    options: [{name: ndots, value: \"2\"}, {name: attempts, value: \"3\"}]\n"),
      pod("  hostNetwork: true\n  dnsPolicy: ClusterFirstWithHostNet\n"),
      pod("  initContainers: [{name: migrate, image: m:1}]\n  volumes: [{name: data, emptyDir: {}}]\n"),
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n  annotations: {team: dns}\n"
      "spec:\n  containers:\n  - name: app\n    env: [{name: LD_PRELOAD, value: /usr/lib/libjemalloc.so}, {name: A, "
      "value: \"1\"}]\n    volumeMounts: [{name: data, mountPath: /data}]\n  volumes: [{name: data, emptyDir: {}}]\n",
      workload("apps/v1", "Deployment"),
  };
  const Args flags[] = {kLibrary,
                        kDns,
                        kMarker,
                        {"--image", test::kImage, "--libc", "musl", "--nameserver", "169.254.20.10", "--host-search",
                         "ec2.internal,corp.example"}};
  InjectOptions remove;
  remove.remove = true;
  for (const std::string& yaml : objects)
    for (const Args& f : flags) {
      SCOPED_TRACE(yaml + testing::PrintToString(f));
      Json::Value object = injected(yaml, options_of(f));
      if (object == json_of(YAML::Load(yaml))) continue;  // left alone: the marker path on the node's network
      std::vector<InjectError> notes;
      EXPECT_EQ(json_of(YAML::Load(yaml)), injected(emit_yaml(yaml_of(object)), remove, &notes));
      EXPECT_EQ("", notes_text(notes));
    }
  std::vector<InjectError> notes;
  EXPECT_EQ(json_of(YAML::Load(pod())), injected(pod(), remove, &notes));
  EXPECT_EQ("spec: no resolv-k8s.io/injected annotation, left as it is", notes_text(notes));
}

}  // namespace
}  // namespace rk8s::tools
