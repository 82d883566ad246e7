// SPDX-License-Identifier: Apache-2.0
// The configuration file: a ServerConfig or a LoadError, whatever the bytes.
// Files named in the YAML are looked up beside the seeds.
#include <cstddef>
#include <cstdint>

#include "common/load_error.h"
#include "server/config/yaml.h"

using namespace rk8s;
using namespace rk8s::server;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    parse_config(std::string_view(reinterpret_cast<const char*>(data), size), "f",
                 "fuzz/corpus/server_config_fuzz", "/dev/null");
  } catch (const LoadError&) {
  }
  return 0;
}
