#include "server/metrics.h"

namespace rk8s::server {

namespace {

constexpr uint16_t kNamedTypes[] = {dns::kTypeA,   dns::kTypeAAAA, dns::kTypeSRV, dns::kTypePTR,
                                    dns::kTypeCNAME, dns::kTypeTXT, dns::kTypeMX,  dns::kTypeNS,
                                    dns::kTypeSOA, dns::kTypeANY};
constexpr const char* kStatusNames[] = {"matched", "exhausted", "servfail_seen", "rejected"};

int type_slot(uint16_t type) {
  for (int i = 0; i < 10; ++i)
    if (kNamedTypes[i] == type) return i;
  return 10;
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
        out += "resolv_k8s_queries_total{type=\"" +
               (t < 10 ? type_to_text(kNamedTypes[t]) : std::string("other")) + "\",rcode=\"" +
               (r < 16 ? rcode_to_text(uint8_t(r)) : std::string("BADVERS")) + "\"} " +
               std::to_string(n) + "\n";
  out += "# HELP resolv_k8s_dropped_total Queries never answered (--drop).\n"
         "# TYPE resolv_k8s_dropped_total counter\n"
         "resolv_k8s_dropped_total " + std::to_string(dropped_) + "\n"
         "# HELP resolv_k8s_autopath_total Autopath queries by reply status.\n"
         "# TYPE resolv_k8s_autopath_total counter\n";
  for (int s = 0; s < kStatusSlots; ++s)
    out += "resolv_k8s_autopath_total{status=\"" + std::string(kStatusNames[s]) + "\"} " +
           std::to_string(autopath_[s]) + "\n";
  out += "# HELP resolv_k8s_autopath_candidates_walked_total Candidates looked at for autopath queries.\n"
         "# TYPE resolv_k8s_autopath_candidates_walked_total counter\n"
         "resolv_k8s_autopath_candidates_walked_total " + std::to_string(walked_) + "\n"
         "# HELP resolv_k8s_autopath_queries_saved_total Queries the clients did not have to send.\n"
         "# TYPE resolv_k8s_autopath_queries_saved_total counter\n"
         "resolv_k8s_autopath_queries_saved_total " + std::to_string(saved_) + "\n";
  return out;
}

}  // namespace rk8s::server
