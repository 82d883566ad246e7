// SPDX-License-Identifier: Apache-2.0
// What `resolv-k8s inject` adds to a pod, shared by the command and the
// object walk.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace cli {

struct InjectOptions {
  std::string image;              // the init container's
  // The build LD_PRELOAD names: "auto" (the one path that is each libc's
  // own build, container/images/copier.c), or "glibc" or "musl" alone.
  std::string libc;
  // The node-local cache, then what a pod falls back to (kube-dns's
  // ClusterIP), at most 3; none: kubelet's DNS stays.
  std::vector<std::string> nameservers;
  std::string cluster_domain;     // for the search list written with `nameservers`
  std::string default_namespace;  // of an object without metadata.namespace
  // --autopath marker: no library; the marker path's DNS instead, the marker
  // first in the search list ("DNS Autopath in PodSpec").
  bool marker = false;
  std::string marker_domain = "ap.k8s.io";
  std::vector<std::string> host_search;  // the node's search domains, after the cluster's
  // The init container's requests and limits alike, for namespaces whose
  // quota demands them: it copies two files.
  std::string init_cpu = "10m";
  std::string init_memory = "16Mi";
  // --remove: the pod spec the first injection kept, back in place.
  bool remove = false;
};

// The command line's defaults: our init image of this version, auto,
// kubelet's DNS, cluster.local.
InjectOptions default_inject_options();

// One of the flags `inject` and `webhook` share (--image, --libc,
// --nameserver, --cluster-domain, --autopath, --marker, --host-search,
// --init-cpu, --init-memory) at
// args[i], with its value (i moves past it); false when args[i] is none.
// Bad values are usage errors of `cmd`.
bool read_inject_flag(const char* cmd, const std::vector<std::string>& args, size_t& i,
                      InjectOptions& o);
// After the flags: what they need of each other.
void check_inject_options(const char* cmd, const InjectOptions& o);

// An object that cannot be changed as it is written: where, and why.
struct InjectError {
  YAML::Mark mark;
  std::string what;
};

// A document of a stream that could not be read or changed: its number and
// the line in the stream (both from 1), and why.
struct StreamError {
  int document;
  int line;
  std::string what;
};

// `stream` with inject_object applied to each of its documents: those it
// changes written again, the others byte for byte; the pods it left as they
// were, and why, in `notes`. Throws StreamError.
std::string inject_stream(const std::string& stream, const InjectOptions& options,
                          std::vector<StreamError>* notes = nullptr);

// The pod of a Pod, of a workload's template or of a CronJob's job template,
// given the library: the init container filling the volume, the volume
// mounted and preloaded in every app container, the autopath option, and
// with options.nameservers the DNS settings kubelet would write, pointing at
// them. What is there already is kept; our own entries (by name) are set to
// `options`, so a second run changes nothing. Other objects are left alone.
// With options.marker, only the DNS settings, the marker first. A pod left
// as it is (its own DNS, the node's network, injected before) adds to
// `notes`. Throws InjectError.
void inject_object(YAML::Node object, const InjectOptions& options, std::vector<InjectError>& notes);

}  // namespace cli
