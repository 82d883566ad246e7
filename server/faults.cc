#include "server/faults.h"

#include <charconv>

namespace rk8s::server {

namespace {

struct Named {
  const char* text;
  uint16_t value;
};

constexpr Named kTypes[] = {{"A", dns::kTypeA},       {"NS", dns::kTypeNS},
                            {"CNAME", dns::kTypeCNAME}, {"SOA", dns::kTypeSOA},
                            {"PTR", dns::kTypePTR},   {"MX", dns::kTypeMX},
                            {"TXT", dns::kTypeTXT},   {"AAAA", dns::kTypeAAAA},
                            {"SRV", dns::kTypeSRV},   {"ANY", dns::kTypeANY}};
constexpr const char* kRcodes[] = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN",
                                   "NOTIMP",  "REFUSED"};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = char(c - 32);
  return out;
}

std::string fault_key(const Name& name, uint16_t type) {
  return name_key(name) + "/" + std::to_string(type);
}

}  // namespace

uint16_t type_from_text(std::string_view text) {
  for (const Named& t : kTypes)
    if (upper(text) == t.text) return t.value;
  unsigned v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() && v <= 0xffff ? uint16_t(v) : 0;
}

std::string type_to_text(uint16_t type) {
  for (const Named& t : kTypes)
    if (t.value == type) return t.text;
  return "TYPE" + std::to_string(type);
}

int rcode_from_text(std::string_view text) {
  for (int i = 0; i < 6; ++i)
    if (upper(text) == kRcodes[i]) return i;
  return -1;
}

std::string rcode_to_text(uint8_t rcode) {
  return rcode < 6 ? kRcodes[rcode] : "RCODE" + std::to_string(rcode);
}

bool Faults::add(std::string_view target, Fault fault) {
  size_t slash = target.rfind('/');
  uint16_t type = 0;
  if (slash != std::string_view::npos) {
    type = type_from_text(target.substr(slash + 1));
    if (!type) return false;
    target = target.substr(0, slash);
  }
  Name name;
  if (!parse_name(target, name)) return false;
  by_key_[fault_key(name, type)] = fault;
  return true;
}

bool Faults::add_rcode(std::string_view spec) {
  size_t eq = spec.rfind('=');
  if (eq == std::string_view::npos) return false;
  int rcode = rcode_from_text(spec.substr(eq + 1));
  return rcode >= 0 && add(spec.substr(0, eq), Fault{false, uint8_t(rcode)});
}

bool Faults::add_drop(std::string_view spec) { return add(spec, Fault{true, 0}); }

std::optional<Fault> Faults::find(const Name& name, uint16_t type) const {
  if (by_key_.empty()) return std::nullopt;
  for (uint16_t t : {type, uint16_t(0)}) {
    auto it = by_key_.find(fault_key(name, t));
    if (it != by_key_.end()) return it->second;
  }
  return std::nullopt;
}

std::optional<Answer> resolve(const Store& store, const Faults& faults, const Name& name,
                              uint16_t type) {
  std::optional<Fault> fault = faults.find(name, type);
  if (!fault) return lookup(store, name, type);
  if (fault->drop) return std::nullopt;
  Answer forced;
  forced.rcode = fault->rcode;
  return forced;
}

}  // namespace rk8s::server
