// SPDX-License-Identifier: Apache-2.0
#include "server/answer/metrics.h"

#include "common/prometheus.h"
#include "server/util/dns_text.h"
#include "server/util/strings.h"

namespace rk8s::server {

namespace {

constexpr int kOtherTypeSlot = QueryMetrics::kTypeSlots - 1;
constexpr int kBadVersSlot = QueryMetrics::kRcodeSlots - 1;

// The types counted on their own, in the order they are printed.
constexpr uint16_t kSlotTypes[kOtherTypeSlot] = {
    dns::kTypeA,     dns::kTypeAAAA, dns::kTypeSRV, dns::kTypePTR, dns::kTypeCNAME,
    dns::kTypeTXT,   dns::kTypeMX,   dns::kTypeNS,  dns::kTypeSOA, dns::kTypeANY};

int type_slot(uint16_t type) {
  for (int i = 0; i < kOtherTypeSlot; ++i)
    if (kSlotTypes[i] == type) return i;
  return kOtherTypeSlot;
}

std::string type_label(int slot) {
  return slot < kOtherTypeSlot ? type_to_text(kSlotTypes[slot]) : "other";
}

std::string rcode_label(int slot) {
  return slot < kBadVersSlot ? rcode_to_text(uint8_t(slot)) : dns::rcode_name(dns::kBadVers);
}

}  // namespace

void QueryMetrics::count(const QueryInfo& info) {
  if (info.dropped) {
    ++dropped_;
    return;
  }
  ++queries_[type_slot(info.qtype)][std::min<int>(info.rcode, kRcodeSlots - 1)];
  schema_cut_ += info.cut.schema;
  rfc8020_cut_ += info.cut.rfc8020;
  // A marker name that matched stands for the candidates before it; one
  // that did not sends the client down its own list (marker.h).
  if (info.marker_walked) {
    ++marker_[std::min<int>(info.marker_status, kStatusSlots - 1)];
    if (info.marker_status == autopath::kMatched) marker_saved_ += info.marker_walked - 1;
  }
  if (!info.autopath) return;
  ++autopath_[std::min<int>(info.autopath->status, kStatusSlots - 1)];
  walked_ += info.walked;
  // The client sends one query where the classic walk sends one per candidate.
  if (info.walked > 1) saved_ += info.walked - 1;
}

void QueryMetrics::duration(const std::string& server, uint8_t rcode, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  durations_[{server, std::min<int>(rcode, kRcodeSlots - 1)}].observe(seconds);
}

std::string QueryMetrics::render() const {
  std::string out = family("queries_total", "counter", "Queries answered, by type and rcode.");
  for (int t = 0; t < kTypeSlots; ++t)
    for (int r = 0; r < kRcodeSlots; ++r)
      if (uint64_t n = queries_[t][r])
        out += sample("queries_total", "type=\"" + type_label(t) + "\",rcode=\"" + rcode_label(r) + "\"", n);
  out += family("dropped_total", "counter", "Queries never answered (--drop).") +
         sample("dropped_total", "", dropped_) +
         family("autopath_total", "counter", "Autopath queries by reply status.");
  for (int s = 0; s < kStatusSlots; ++s)
    out += sample("autopath_total",
                  "status=\"" + ascii_lower(autopath::status_name(uint8_t(s))) + "\"", autopath_[s]);
  out += family("autopath_candidates_walked_total", "counter",
                "Candidates looked at for autopath queries.") +
         sample("autopath_candidates_walked_total", "", walked_) +
         family("autopath_queries_saved_total", "counter", "Queries the clients did not have to send.") +
         sample("autopath_queries_saved_total", "", saved_) +
         family("autopath_candidates_cut_total", "counter",
                "Candidates walked past unasked, certain NXDOMAIN, by cut (autopath.schemaCut, "
                "autopath.rfc8020Cut).") +
         sample("autopath_candidates_cut_total", "cut=\"schema\"", schema_cut_) +
         sample("autopath_candidates_cut_total", "cut=\"rfc8020\"", rfc8020_cut_) +
         family("marker_total", "counter", "Marker names answered, by the walk's status.");
  for (int s = 0; s < kStatusSlots; ++s)
    out += sample("marker_total", "status=\"" + ascii_lower(autopath::status_name(uint8_t(s))) + "\"", marker_[s]);
  out += family("marker_queries_saved_total", "counter",
                "Queries clients on the marker path did not have to send.") +
         sample("marker_queries_saved_total", "", marker_saved_);
  std::lock_guard<std::mutex> lock(mutex_);
  out += family("request_duration_seconds", "histogram", "Time to answer a query, by server and rcode.");
  for (const auto& [key, h] : durations_)
    out += h.samples("request_duration_seconds",
                     "server=\"" + key.first + "\",rcode=\"" + rcode_label(key.second) + "\"");
  return out;
}

}  // namespace rk8s::server
