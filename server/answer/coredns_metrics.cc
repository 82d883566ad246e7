// SPDX-License-Identifier: Apache-2.0
#include "server/answer/coredns_metrics.h"

#include <utility>

#include "server/util/dns_text.h"

namespace rk8s::server {
namespace {

// The types CoreDNS 1.8 names (plugin/metrics/vars/monitor.go's list, and
// HTTPS since 1.11); any other is "other", the last slot.
struct TypeLabel {
  uint16_t type;
  const char* label;
};
constexpr TypeLabel kTypes[CorednsQueries::kTypeSlots - 1] = {
    {1, "A"},       {28, "AAAA"},  {33, "SRV"},  {12, "PTR"},    {5, "CNAME"}, {2, "NS"},    {6, "SOA"},
    {15, "MX"},     {16, "TXT"},   {43, "DS"},   {46, "RRSIG"},  {47, "NSEC"}, {48, "DNSKEY"}, {50, "NSEC3"},
    {65, "HTTPS"},  {251, "IXFR"}, {252, "AXFR"}, {255, "ANY"}};

int type_slot(uint16_t type) {
  int i = 0;
  while (i < CorednsQueries::kTypeSlots - 1 && kTypes[i].type != type) i++;
  return i;
}

const char* type_label(int slot) { return slot < CorednsQueries::kTypeSlots - 1 ? kTypes[slot].label : "other"; }

// CoreDNS's `plugin` label: the plugin that wrote the reply, "" for the
// server's own (an error no plugin answered).
const char* plugin_label(int by) {
  switch (QueryInfo::By(by)) {
    case QueryInfo::By::data: return "file";
    case QueryInfo::By::cache: return "cache";
    case QueryInfo::By::upstream: return "forward";
    default: return "";
  }
}

}  // namespace

CorednsQueries::CorednsQueries(std::string server, size_t workers)
    : server_(std::move(server)), names_{"."}, indexes_{{".", 0}}, workers_(workers) {}

CorednsQueries::~CorednsQueries() {
  for (Worker& w : workers_)
    for (auto& z : w.zones) delete z.load();
}

uint16_t CorednsQueries::zone_index(const std::string& zone) {
  const std::string name = zone.empty() ? "." : zone;
  std::lock_guard<std::mutex> lock(mutex_);
  auto [at, added] = indexes_.try_emplace(name, uint16_t(names_.size()));
  if (!added) return at->second;
  if (names_.size() == kZones) {
    indexes_.erase(at);
    return 0;
  }
  names_.push_back(name);
  return at->second;
}

void CorednsQueries::count(size_t worker, const QueryInfo& info, bool tcp, bool ipv6, double seconds) {
  if (info.dropped || !info.has_question) return;
  Worker& w = workers_[worker];
  ZoneCounts* z = w.zones[info.zone_index].load(std::memory_order_acquire);
  if (!z) {
    z = new ZoneCounts;
    w.zones[info.zone_index].store(z, std::memory_order_release);
  }
  int type = type_slot(info.qtype);
  z->requests[tcp][ipv6][type].add();
  z->responses[std::min<int>(info.rcode, kRcodeSlots - 1)][int(info.by)].add();
  z->durations[type].observe(seconds);
  if (info.by == QueryInfo::By::cache) w.hits[info.denial].add();
  if (info.by == QueryInfo::By::upstream) w.misses.add();
}

std::string CorednsQueries::render(uint64_t entries, uint64_t denials) const {
  const std::string server = "server=\"" + server_ + "\"";
  // Every worker's counts, by their labels' text: the samples in its order.
  std::map<std::string, uint64_t> requests, responses;
  std::map<std::string, Histogram> durations;
  uint64_t hits[2] = {}, misses = 0;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Worker& w : workers_) {
    for (size_t i = 0; i < names_.size(); i++) {
      const ZoneCounts* z = w.zones[i].load(std::memory_order_acquire);
      if (!z) continue;
      const std::string zone = server + ",zone=\"" + names_[i] + "\"";
      for (int t = 0; t < kTypeSlots; t++) {
        for (int tcp = 0; tcp < 2; tcp++)
          for (int ipv6 = 0; ipv6 < 2; ipv6++)
            if (uint64_t n = z->requests[tcp][ipv6][t].get())
              requests[zone + ",proto=\"" + (tcp ? "tcp" : "udp") + "\",family=\"" + (ipv6 ? "2" : "1") +
                       "\",type=\"" + type_label(t) + "\""] += n;
        if (z->durations[t].count()) z->durations[t].read(durations[zone + ",type=\"" + type_label(t) + "\""]);
      }
      for (int r = 0; r < kRcodeSlots; r++)
        for (int by = 0; by < kPlugins; by++)
          if (uint64_t n = z->responses[r][by].get())
            responses[zone + ",rcode=\"" + (r < 16 ? rcode_to_text(uint8_t(r)) : "BADVERS") + "\",plugin=\"" +
                      plugin_label(by) + "\""] += n;
    }
    hits[0] += w.hits[0].get();
    hits[1] += w.hits[1].get();
    misses += w.misses.get();
  }
  std::string out = family("dns_requests_total", "counter", "Queries, by zone, transport, address family and type.", kCoredns);
  for (const auto& [labels, n] : requests) out += sample("dns_requests_total", labels, n, kCoredns);
  out += family("dns_responses_total", "counter", "Replies, by zone, rcode and the part that wrote them.", kCoredns);
  for (const auto& [labels, n] : responses) out += sample("dns_responses_total", labels, n, kCoredns);
  out += family("dns_request_duration_seconds", "histogram", "Time to answer a query, by zone and type.", kCoredns);
  for (const auto& [labels, h] : durations) out += h.samples("dns_request_duration_seconds", labels, kCoredns);
  out += family("cache_entries", "gauge", "Answers in the cache, by positive (success) or negative (denial).", kCoredns) +
         sample("cache_entries", server + ",type=\"denial\"", denials, kCoredns) +
         sample("cache_entries", server + ",type=\"success\"", entries - std::min(entries, denials), kCoredns) +
         family("cache_hits_total", "counter", "Queries answered from the cache, by success or denial.", kCoredns) +
         sample("cache_hits_total", server + ",type=\"denial\"", hits[1], kCoredns) +
         sample("cache_hits_total", server + ",type=\"success\"", hits[0], kCoredns) +
         family("cache_misses_total", "counter", "Queries the cache sent upstream.", kCoredns) +
         sample("cache_misses_total", server, misses, kCoredns);
  return out;
}

}  // namespace rk8s::server
