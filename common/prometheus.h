// SPDX-License-Identifier: Apache-2.0
// The Prometheus text format (0.0.4), the two lines a family opens with
// and one sample, every metric name with our prefix.
#pragma once

#include <cstdint>
#include <string>

namespace rk8s {

constexpr const char* kOurs = "resolv_k8s_";
// The families served under CoreDNS's names (server/answer/coredns_metrics.h).
constexpr const char* kCoredns = "coredns_";

// "# HELP resolv_k8s_NAME HELP\n# TYPE resolv_k8s_NAME TYPE\n".
std::string family(const std::string& name, const char* type, const char* help, const char* prefix = kOurs);
// "resolv_k8s_NAME{LABELS} VALUE\n"; no braces without labels.
std::string sample(const std::string& name, const std::string& labels, const std::string& value,
                   const char* prefix = kOurs);
std::string sample(const std::string& name, const std::string& labels, uint64_t value, const char* prefix = kOurs);

// Durations in CoreDNS's buckets: 0.25 ms doubling to 8.192 s, then +Inf.
struct Histogram {
  static constexpr int kBuckets = 16;
  uint64_t counts[kBuckets + 1] = {};
  double sum = 0;

  void observe(double seconds);
  void add(const Histogram& other);
  uint64_t count() const;
  // NAME_bucket{LABELS,le=...} for each bound, NAME_sum and NAME_count.
  std::string samples(const std::string& name, const std::string& labels, const char* prefix = kOurs) const;
};

}  // namespace rk8s
