// SPDX-License-Identifier: Apache-2.0
#include "server/answer/coredns_metrics.h"

#include "server/util/dns_text.h"

namespace rk8s::server {
namespace {

// The types CoreDNS 1.8 names (plugin/metrics/vars/monitor.go's list, and
// HTTPS since 1.11); any other is "other".
const char* type_label(uint16_t type) {
  switch (type) {
    case 1: return "A";
    case 2: return "NS";
    case 5: return "CNAME";
    case 6: return "SOA";
    case 12: return "PTR";
    case 15: return "MX";
    case 16: return "TXT";
    case 28: return "AAAA";
    case 33: return "SRV";
    case 43: return "DS";
    case 46: return "RRSIG";
    case 47: return "NSEC";
    case 48: return "DNSKEY";
    case 50: return "NSEC3";
    case 65: return "HTTPS";
    case 251: return "IXFR";
    case 252: return "AXFR";
    case 255: return "ANY";
    default: return "other";
  }
}

// CoreDNS's `plugin` label: the plugin that wrote the reply, "" for the
// server's own (an error no plugin answered).
const char* plugin_label(uint8_t by) {
  switch (QueryInfo::By(by)) {
    case QueryInfo::By::data: return "file";
    case QueryInfo::By::cache: return "cache";
    case QueryInfo::By::upstream: return "forward";
    default: return "";
  }
}

// The histograms of `all` summed by the labels `label` gives each key.
template <typename Map, typename Label>
std::map<std::string, Histogram> sum_by(const Map& all, Label label) {
  std::map<std::string, Histogram> out;
  for (const auto& [key, h] : all) out[label(key)].add(h);
  return out;
}

}  // namespace

void CorednsQueries::count(const QueryInfo& info, bool tcp, bool ipv6, double seconds) {
  if (info.dropped || !info.has_question) return;
  Key key{info.zone.empty() ? "." : info.zone, tcp, ipv6, type_label(info.qtype),
          std::min<uint8_t>(info.rcode, 16), uint8_t(info.by), info.denial};
  std::lock_guard<std::mutex> lock(mutex_);
  queries_[key].observe(seconds);
}

std::string CorednsQueries::render(uint64_t entries, uint64_t denials) const {
  const std::string server = "server=\"" + server_ + "\"";
  auto zone = [&](const Key& k) { return server + ",zone=\"" + std::get<0>(k) + "\""; };
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out = family("dns_requests_total", "counter", "Queries, by zone, transport, address family and type.", kCoredns);
  for (const auto& [labels, h] : sum_by(queries_, [&](const Key& k) {
         return zone(k) + ",proto=\"" + (std::get<1>(k) ? "tcp" : "udp") + "\",family=\"" +
                (std::get<2>(k) ? "2" : "1") + "\",type=\"" + std::get<3>(k) + "\"";
       }))
    out += sample("dns_requests_total", labels, h.count(), kCoredns);
  out += family("dns_responses_total", "counter", "Replies, by zone, rcode and the part that wrote them.", kCoredns);
  for (const auto& [labels, h] : sum_by(queries_, [&](const Key& k) {
         uint8_t rcode = std::get<4>(k);
         return zone(k) + ",rcode=\"" + (rcode < 16 ? rcode_to_text(rcode) : "BADVERS") + "\",plugin=\"" +
                plugin_label(std::get<5>(k)) + "\"";
       }))
    out += sample("dns_responses_total", labels, h.count(), kCoredns);
  out += family("dns_request_duration_seconds", "histogram", "Time to answer a query, by zone and type.", kCoredns);
  for (const auto& [labels, h] :
       sum_by(queries_, [&](const Key& k) { return zone(k) + ",type=\"" + std::get<3>(k) + "\""; }))
    out += h.samples("dns_request_duration_seconds", labels, kCoredns);
  uint64_t hits[2] = {}, misses = 0;
  for (const auto& [k, h] : queries_) {
    if (QueryInfo::By(std::get<5>(k)) == QueryInfo::By::cache) hits[std::get<6>(k)] += h.count();
    if (QueryInfo::By(std::get<5>(k)) == QueryInfo::By::upstream) misses += h.count();
  }
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
