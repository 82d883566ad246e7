// SPDX-License-Identifier: Apache-2.0
// The Prometheus text format (0.0.4), the two lines a family opens with
// and one sample, every metric name with our prefix.
#pragma once

#include <atomic>
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

  // The bucket `seconds` falls in (kBuckets: past the last bound).
  static int bucket(double seconds);
  void observe(double seconds);
  void add(const Histogram& other);
  uint64_t count() const;
  // NAME_bucket{LABELS,le=...} for each bound, NAME_sum and NAME_count.
  std::string samples(const std::string& name, const std::string& labels, const char* prefix = kOurs) const;
};

// A counter one thread adds to and any thread reads (a worker's own, summed
// when scraped): a load and a store, no locked instruction, no cache line
// another writer shares.
class OwnCounter {
 public:
  void add(uint64_t n = 1) { n_.store(n_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed); }
  uint64_t get() const { return n_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> n_{0};
};

// A Histogram as OwnCounter is a counter: observed by one thread, read by any.
class OwnHistogram {
 public:
  void observe(double seconds) {
    counts_[Histogram::bucket(seconds)].add();
    sum_.store(sum_.load(std::memory_order_relaxed) + seconds, std::memory_order_relaxed);
  }
  uint64_t count() const;
  // Added to `into`.
  void read(Histogram& into) const;

 private:
  OwnCounter counts_[Histogram::kBuckets + 1];
  std::atomic<double> sum_{0};
};

}  // namespace rk8s
