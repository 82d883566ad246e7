// SPDX-License-Identifier: Apache-2.0
#include "common/prometheus.h"

#include <cstdio>

namespace rk8s {

std::string family(const std::string& name, const char* type, const char* help, const char* prefix) {
  return std::string("# HELP ") + prefix + name + " " + help + "\n# TYPE " + prefix + name + " " + type + "\n";
}

std::string sample(const std::string& name, const std::string& labels, const std::string& value,
                   const char* prefix) {
  return prefix + name + (labels.empty() ? "" : "{" + labels + "}") + " " + value + "\n";
}

std::string sample(const std::string& name, const std::string& labels, uint64_t value, const char* prefix) {
  return sample(name, labels, std::to_string(value), prefix);
}

namespace {

double bound(int i) { return 0.00025 * double(1u << i); }

std::string number(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

int Histogram::bucket(double seconds) {
  int i = 0;
  while (i < kBuckets && seconds > bound(i)) i++;
  return i;
}

void Histogram::observe(double seconds) {
  counts[bucket(seconds)]++;
  sum += seconds;
}

void Histogram::add(const Histogram& other) {
  for (int i = 0; i <= kBuckets; i++) counts[i] += other.counts[i];
  sum += other.sum;
}

uint64_t Histogram::count() const {
  uint64_t n = 0;
  for (uint64_t c : counts) n += c;
  return n;
}

uint64_t OwnHistogram::count() const {
  uint64_t n = 0;
  for (const OwnCounter& c : counts_) n += c.get();
  return n;
}

void OwnHistogram::read(Histogram& into) const {
  for (int i = 0; i <= Histogram::kBuckets; i++) into.counts[i] += counts_[i].get();
  into.sum += sum_.load(std::memory_order_relaxed);
}

std::string Histogram::samples(const std::string& name, const std::string& labels, const char* prefix) const {
  std::string out, sep = labels.empty() ? "" : ",";
  uint64_t cumulative = 0;
  for (int i = 0; i <= kBuckets; i++) {
    cumulative += counts[i];
    std::string le = i < kBuckets ? number(bound(i)) : "+Inf";
    out += sample(name + "_bucket", labels + sep + "le=\"" + le + "\"", cumulative, prefix);
  }
  return out + sample(name + "_sum", labels, number(sum), prefix) + sample(name + "_count", labels, cumulative, prefix);
}

}  // namespace rk8s
