// SPDX-License-Identifier: Apache-2.0
// What `resolv-k8s inject` gives a pod, and the flags that set it, which
// `inject` and `webhook` share.
#pragma once

#include <string>
#include <vector>

#include "tools/usage/usage.h"

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
bool read_inject_flag(const char* cmd, const Args& args, size_t& i, InjectOptions& o);
// After the flags: what they need of each other.
void check_inject_options(const char* cmd, const InjectOptions& o);

}  // namespace cli
