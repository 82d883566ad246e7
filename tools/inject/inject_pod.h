// SPDX-License-Identifier: Apache-2.0
// resolv-k8s inject's edit of one object: the pod it holds given the
// library, or the marker path's DNS.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "tools/inject/inject_options.h"

namespace rk8s::tools {

// An object that cannot be changed as it is written: where, and why.
struct InjectError {
  YAML::Mark mark;
  std::string what;
};

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

}  // namespace rk8s::tools
