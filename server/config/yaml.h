// SPDX-License-Identifier: Apache-2.0
// The configuration file of --config (server/README.md, "Configuration
// file"): YAML read into a ServerConfig, or a LoadError "file:line: what".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "server/config/config.h"

namespace rk8s::server {

// Zone and cluster files are relative to the config file's directory.
ServerConfig load_config_file(const std::string& path);

// `yaml_text` as the contents of `file` (for messages); relative file names
// are looked up under `base_dir` (none: the working directory), and
// `type: SystemResolvConf` reads `resolv_conf`. The files named are opened
// to check they can be, not read.
ServerConfig parse_config(std::string_view yaml_text, const std::string& file,
                          const std::string& base_dir,
                          const std::string& resolv_conf = "/etc/resolv.conf");

// Every key the file may hold, each feature's under its section's key
// (stubDomains' are zones).
std::vector<SettingKeys> known_settings();

}  // namespace rk8s::server
