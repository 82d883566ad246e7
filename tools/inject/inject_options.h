// SPDX-License-Identifier: Apache-2.0
// What `resolv-k8s inject` gives a pod, and the flags that set it, which
// `inject` and `webhook` share.
#pragma once

#include <string>
#include <vector>

#include "tools/usage/usage.h"

namespace rk8s::tools {

struct InjectOptions {
  std::string image;  // the init container's: --image, needed (no default)
  // The build LD_PRELOAD names: "auto" (the one path that is each libc's
  // own build, container/images/copier.c), or "glibc" or "musl" alone.
  std::string libc = "auto";
  // The node-local cache, then what a pod falls back to (kube-dns's
  // ClusterIP), at most 3; none: kubelet's DNS stays.
  std::vector<std::string> nameservers;
  std::string cluster_domain = "cluster.local";  // for the search list written with `nameservers`
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
  // --remove: what an injection added taken out again (its status annotation).
  bool remove = false;
  // The settings given on this run (flags, the webhook's pod annotations):
  // an object injected before keeps its own for the others.
  struct Given {
    bool image = false, libc = false, nameservers = false, cluster_domain = false, marker = false,
         host_search = false;
  } given;
};

// One of the flags `inject` and `webhook` share (--image, --libc,
// --nameserver, --cluster-domain, --autopath, --marker, --host-search,
// --init-cpu, --init-memory) at args[i], with its value (i moves past it);
// false when args[i] is none. --nameserver and --host-search take a
// comma-separated list too, and '' for none. Bad values are usage errors
// of `cmd`.
bool read_inject_flag(const char* cmd, const Args& args, size_t& i, InjectOptions& o);
// After the flags: what they need of each other; --image unless only the
// marker path's DNS or --remove is asked for.
void check_inject_options(const char* cmd, const InjectOptions& o);

// The node's search domains as kubelet appended them to a ClusterFirst
// pod's resolv.conf at `path` (the webhook's own): the search list after
// the cluster's three (NS.svc.DOMAIN, svc.DOMAIN, DOMAIN). Empty when
// there are none, or the file cannot be read.
std::vector<std::string> node_search_of(const std::string& path, const std::string& cluster_domain);

}  // namespace rk8s::tools
