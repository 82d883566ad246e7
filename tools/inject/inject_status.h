// SPDX-License-Identifier: Apache-2.0
// The annotation an injected pod carries (resolv-k8s.io/injected): what
// inject was asked for and what it added to the pod's DNS, a few hundred
// bytes, from which a later run keeps the settings it is not given and
// --remove takes out what was added (the library's parts found by name:
// the init container, the volume and its mounts, LD_PRELOAD's entry).
#pragma once

#include <string>
#include <vector>

#include "tools/inject/inject_options.h"

namespace rk8s::tools {

constexpr const char* kStatusKey = "resolv-k8s.io/injected";

struct InjectStatus {
  std::string version;  // of the inject that wrote it
  // The settings asked for.
  std::string image, libc;  // option mode
  bool marker = false;
  std::vector<std::string> nameservers, host_search;
  std::string cluster_domain;
  // What was added, each only when it was not there before: the library
  // (its init container, volume, mounts and LD_PRELOAD entry), the DNS.
  bool added_library = false;
  bool set_policy = false;  // dnsPolicy set to None; the one before:
  std::string policy_before;  // "" when it had none
  std::vector<std::string> added_nameservers, added_searches, added_options;
};

// The status of `options` as a run applies them, added parts empty.
InjectStatus status_of(const InjectOptions& options);
// `options` with the settings of `status` where options.given says the
// run was not given them.
InjectOptions with_status_settings(const InjectOptions& options, const InjectStatus& status);
// Compact JSON, and back: false when `text` is not what status_text writes.
std::string status_text(const InjectStatus& status);
bool parse_status(const std::string& text, InjectStatus& out);
// "image a -> b; nameservers [] -> [x]": the settings that differ, "" when none.
std::string settings_changed(const InjectStatus& before, const InjectStatus& after);

}  // namespace rk8s::tools
