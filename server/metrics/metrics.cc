#include "server/metrics/metrics.h"

#include "server/util/mnemonics.h"
#include "server/util/text.h"

namespace rk8s::server {

namespace {

constexpr int kOtherTypeSlot = Metrics::kTypeSlots - 1;
constexpr int kBadVersSlot = Metrics::kRcodeSlots - 1;

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

void Metrics::count(const QueryInfo& info) {
  if (info.dropped) {
    ++dropped_;
    return;
  }
  ++queries_[type_slot(info.qtype)][std::min<int>(info.rcode, kRcodeSlots - 1)];
  if (!info.autopath) return;
  ++autopath_[std::min<int>(info.autopath->status, kStatusSlots - 1)];
  walked_ += info.walked;
  // The client sends one query where the classic walk sends one per candidate.
  if (info.walked > 1) saved_ += info.walked - 1;
}

std::string Metrics::render() const {
  std::string out =
      "# HELP resolv_k8s_queries_total Queries answered, by type and rcode.\n"
      "# TYPE resolv_k8s_queries_total counter\n";
  for (int t = 0; t < kTypeSlots; ++t)
    for (int r = 0; r < kRcodeSlots; ++r)
      if (uint64_t n = queries_[t][r])
        out += "resolv_k8s_queries_total{type=\"" + type_label(t) + "\",rcode=\"" +
               rcode_label(r) + "\"} " + std::to_string(n) + "\n";
  out += "# HELP resolv_k8s_dropped_total Queries never answered (--drop).\n"
         "# TYPE resolv_k8s_dropped_total counter\n"
         "resolv_k8s_dropped_total " + std::to_string(dropped_) + "\n"
         "# HELP resolv_k8s_autopath_total Autopath queries by reply status.\n"
         "# TYPE resolv_k8s_autopath_total counter\n";
  for (int s = 0; s < kStatusSlots; ++s)
    out += "resolv_k8s_autopath_total{status=\"" + ascii_lower(autopath::status_name(uint8_t(s))) +
           "\"} " + std::to_string(autopath_[s]) + "\n";
  out += "# HELP resolv_k8s_autopath_candidates_walked_total Candidates looked at for autopath queries.\n"
         "# TYPE resolv_k8s_autopath_candidates_walked_total counter\n"
         "resolv_k8s_autopath_candidates_walked_total " + std::to_string(walked_) + "\n"
         "# HELP resolv_k8s_autopath_queries_saved_total Queries the clients did not have to send.\n"
         "# TYPE resolv_k8s_autopath_queries_saved_total counter\n"
         "resolv_k8s_autopath_queries_saved_total " + std::to_string(saved_) + "\n";
  return out;
}

}  // namespace rk8s::server
