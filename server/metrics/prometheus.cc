// SPDX-License-Identifier: Apache-2.0
#include "server/metrics/prometheus.h"

namespace rk8s::server {

std::string family(const std::string& name, const char* type, const char* help) {
  return "# HELP resolv_k8s_" + name + " " + help + "\n# TYPE resolv_k8s_" + name + " " + type + "\n";
}

std::string sample(const std::string& name, const std::string& labels, const std::string& value) {
  return "resolv_k8s_" + name + (labels.empty() ? "" : "{" + labels + "}") + " " + value + "\n";
}

std::string sample(const std::string& name, const std::string& labels, uint64_t value) {
  return sample(name, labels, std::to_string(value));
}

}  // namespace rk8s::server
