#include "server/autopath_walk.h"

#include <algorithm>

namespace rk8s::server {

namespace {

bool matches(const Store& store, const Name& candidate, uint16_t qtype, uint8_t flags,
             const Answer& a) {
  if (flags & autopath::kFlagStopOnExists) return a.exists();
  if (a.has_data) return true;
  if (!(flags & autopath::kFlagPaired) || !a.exists()) return false;
  uint16_t other = qtype == dns::kTypeAAAA ? dns::kTypeA : dns::kTypeAAAA;
  return lookup(store, candidate, other).has_data;
}

bool failed(const Answer& a) { return a.rcode != dns::kNoError && a.rcode != dns::kNxDomain; }

}  // namespace

Walk walk(const Store& store, const Faults& faults, const Name& qname, uint16_t qtype,
          const autopath::QueryOption& query) {
  Walk w;
  Name base;
  if (!dns::name_strip_suffix(qname, query.suffix[0], base) || base.len <= 1) return w;

  bool servfail_seen = false;
  uint32_t skipped_ttl = UINT32_MAX;
  Answer own;
  for (size_t i = 0; i < query.count; ++i) {
    Name candidate;
    if (!dns::name_concat(base, query.suffix[i], candidate)) continue;  // too long to exist
    ++w.walked;
    std::optional<Answer> a = resolve(store, faults, candidate, qtype);
    if (!a) {
      w.drop = true;
      return w;
    }
    if (i == 0) own = *a;
    if (failed(*a)) {
      servfail_seen = true;
      continue;
    }
    if (!matches(store, candidate, qtype, query.flags, *a)) {
      skipped_ttl = std::min(skipped_ttl, a->negative_ttl());
      continue;
    }
    w.option.status = autopath::kMatched;
    w.option.index = uint8_t(i);
    if (i > 0) {
      uint32_t ttl = std::min({skipped_ttl, a->min_ttl(), a->has_data ? UINT32_MAX : a->negative_ttl()});
      Rr alias{dns::kTypeCNAME, ttl == UINT32_MAX ? 0 : ttl, {}};
      put_name(alias.rdata, candidate);
      w.alias = alias;
    }
    if ((query.flags & autopath::kFlagBoth) && qtype == dns::kTypeA) {
      w.option.flags |= autopath::kFlagBoth;
      for (const RrRef& r : lookup(store, candidate, dns::kTypeAAAA).records)
        if (r.rr->type == dns::kTypeAAAA) w.additional.push_back(r);
    }
    w.answer = std::move(*a);
    return w;
  }
  if (servfail_seen) {
    w.option.status = autopath::kServfailSeen;
    w.answer.rcode = dns::kServFail;
  } else {
    w.option.status = autopath::kExhausted;
    w.answer = std::move(own);
  }
  return w;
}

}  // namespace rk8s::server
