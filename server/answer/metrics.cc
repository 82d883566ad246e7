// SPDX-License-Identifier: Apache-2.0
#include "server/answer/metrics.h"

#include <utility>

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

QueryMetrics::QueryMetrics(std::string server, size_t workers) : server_(std::move(server)), workers_(workers) {}

template <typename Member>
uint64_t QueryMetrics::sum(Member member) const {
  uint64_t n = 0;
  for (const Counts& c : workers_) n += member(c).get();
  return n;
}

void QueryMetrics::count(size_t worker, const QueryInfo& info) {
  Counts& c = workers_[worker];
  if (info.dropped) {
    c.dropped.add();
    return;
  }
  c.queries[type_slot(info.qtype)][std::min<int>(info.rcode, kRcodeSlots - 1)].add();
  if (info.cut.schema) c.schema_cut.add(info.cut.schema);
  if (info.cut.rfc8020) c.rfc8020_cut.add(info.cut.rfc8020);
  // A marker name that matched stands for the candidates before it; one
  // that did not sends the client down its own list (marker.h).
  if (info.marker_walked) {
    c.marker[std::min<int>(info.marker_status, kStatusSlots - 1)].add();
    if (info.marker_status == autopath::kMatched) c.marker_saved.add(info.marker_walked - 1);
  }
  if (!info.autopath) return;
  c.autopath[std::min<int>(info.autopath->status, kStatusSlots - 1)].add();
  c.walked.add(info.walked);
  // The client sends one query where the classic walk sends one per candidate.
  if (info.walked > 1) c.saved.add(info.walked - 1);
}

void QueryMetrics::duration(size_t worker, uint8_t rcode, double seconds) {
  workers_[worker].durations[std::min<int>(rcode, kRcodeSlots - 1)].observe(seconds);
}

std::string QueryMetrics::render() const {
  std::string out = family("queries_total", "counter", "Queries answered, by type and rcode.");
  for (int t = 0; t < kTypeSlots; ++t)
    for (int r = 0; r < kRcodeSlots; ++r)
      if (uint64_t n = sum([&](const Counts& c) -> const OwnCounter& { return c.queries[t][r]; }))
        out += sample("queries_total", "type=\"" + type_label(t) + "\",rcode=\"" + rcode_label(r) + "\"", n);
  out += family("dropped_total", "counter", "Queries never answered (--drop).") +
         sample("dropped_total", "", sum([](const Counts& c) -> const OwnCounter& { return c.dropped; })) +
         family("autopath_total", "counter", "Autopath queries by reply status.");
  for (int s = 0; s < kStatusSlots; ++s)
    out += sample("autopath_total", "status=\"" + ascii_lower(autopath::status_name(uint8_t(s))) + "\"",
                  sum([&](const Counts& c) -> const OwnCounter& { return c.autopath[s]; }));
  out += family("autopath_candidates_walked_total", "counter",
                "Candidates looked at for autopath queries.") +
         sample("autopath_candidates_walked_total", "",
                sum([](const Counts& c) -> const OwnCounter& { return c.walked; })) +
         family("autopath_queries_saved_total", "counter", "Queries the clients did not have to send.") +
         sample("autopath_queries_saved_total", "", sum([](const Counts& c) -> const OwnCounter& { return c.saved; })) +
         family("autopath_candidates_cut_total", "counter",
                "Candidates walked past unasked, certain NXDOMAIN, by cut (autopath.schemaCut, "
                "autopath.rfc8020Cut).") +
         sample("autopath_candidates_cut_total", "cut=\"schema\"",
                sum([](const Counts& c) -> const OwnCounter& { return c.schema_cut; })) +
         sample("autopath_candidates_cut_total", "cut=\"rfc8020\"",
                sum([](const Counts& c) -> const OwnCounter& { return c.rfc8020_cut; })) +
         family("marker_total", "counter", "Marker names answered, by the walk's status.");
  for (int s = 0; s < kStatusSlots; ++s)
    out += sample("marker_total", "status=\"" + ascii_lower(autopath::status_name(uint8_t(s))) + "\"",
                  sum([&](const Counts& c) -> const OwnCounter& { return c.marker[s]; }));
  out += family("marker_queries_saved_total", "counter",
                "Queries clients on the marker path did not have to send.") +
         sample("marker_queries_saved_total", "",
                sum([](const Counts& c) -> const OwnCounter& { return c.marker_saved; }));
  out += family("request_duration_seconds", "histogram", "Time to answer a query, by server and rcode.");
  for (int r = 0; r < kRcodeSlots; ++r) {
    Histogram h;
    for (const Counts& c : workers_) c.durations[r].read(h);
    if (h.count())
      out += h.samples("request_duration_seconds", "server=\"" + server_ + "\",rcode=\"" + rcode_label(r) + "\"");
  }
  return out;
}

}  // namespace rk8s::server
