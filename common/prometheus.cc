// SPDX-License-Identifier: Apache-2.0
#include "common/prometheus.h"

#include <cstdio>

namespace rk8s {

std::string family(const std::string& name, const char* type, const char* help) {
  return "# HELP resolv_k8s_" + name + " " + help + "\n# TYPE resolv_k8s_" + name + " " + type + "\n";
}

std::string sample(const std::string& name, const std::string& labels, const std::string& value) {
  return "resolv_k8s_" + name + (labels.empty() ? "" : "{" + labels + "}") + " " + value + "\n";
}

std::string sample(const std::string& name, const std::string& labels, uint64_t value) {
  return sample(name, labels, std::to_string(value));
}

namespace {

double bound(int i) { return 0.00025 * double(1u << i); }

std::string number(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

void Histogram::observe(double seconds) {
  int i = 0;
  while (i < kBuckets && seconds > bound(i)) i++;
  counts[i]++;
  sum += seconds;
}

std::string Histogram::samples(const std::string& name, const std::string& labels) const {
  std::string out, sep = labels.empty() ? "" : ",";
  uint64_t cumulative = 0;
  for (int i = 0; i <= kBuckets; i++) {
    cumulative += counts[i];
    std::string le = i < kBuckets ? number(bound(i)) : "+Inf";
    out += sample(name + "_bucket", labels + sep + "le=\"" + le + "\"", cumulative);
  }
  return out + sample(name + "_sum", labels, number(sum)) + sample(name + "_count", labels, cumulative);
}

}  // namespace rk8s
