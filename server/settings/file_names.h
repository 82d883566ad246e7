// SPDX-License-Identifier: Apache-2.0
// The files the config file names: relative names under its own
// directory, each checked to be a file that can be read; and the node's
// resolv.conf, which `type: SystemResolvConf` and the marker's search
// domains read.
#pragma once

#include <string>

#include "server/settings/yaml_field.h"

namespace rk8s::server {

struct FileNames {
  std::string base_dir;  // empty: the working directory
  std::string resolv_conf = "/etc/resolv.conf";

  // The path of the file `f` names.
  std::string relative(const Field& f) const;
  // relative()'s, of a regular file that can be opened for reading.
  std::string readable(const Field& f) const;
};

}  // namespace rk8s::server
