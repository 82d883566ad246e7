#include "server/answer/autopath_walk.h"

#include <algorithm>

namespace rk8s::server {

namespace {

bool matches(const Store& store, const Name& candidate, uint16_t qtype, uint8_t flags,
             const Resolution& res) {
  if (flags & autopath::kFlagStopOnExists) return res.exists();
  if (res.has_data) return true;
  if (!(flags & autopath::kFlagPaired) || !res.exists()) return false;
  uint16_t other = qtype == dns::kTypeAAAA ? dns::kTypeA : dns::kTypeAAAA;
  return store_lookup(store, candidate, other).has_data;
}

bool failed(const Resolution& res) {
  return res.rcode != dns::kNoError && res.rcode != dns::kNxDomain;
}

}  // namespace

AutopathWalk walk_candidates(const Store& store, const Faults& faults, const Name& qname,
                             uint16_t qtype, const autopath::QueryOption& query) {
  AutopathWalk w;
  Name base;
  if (!dns::name_strip_suffix(qname, query.suffix[0], base) || base.len <= 1) return w;

  bool servfail_seen = false;
  uint32_t skipped_ttl = UINT32_MAX;
  Resolution own;
  for (size_t i = 0; i < query.count; ++i) {
    Name candidate;
    if (!dns::name_concat(base, query.suffix[i], candidate)) continue;  // too long to exist
    ++w.walked;
    std::optional<Resolution> res = resolve(store, faults, candidate, qtype);
    if (!res) {
      w.drop = true;
      return w;
    }
    if (i == 0) own = *res;
    if (failed(*res)) {
      servfail_seen = true;
      continue;
    }
    if (!matches(store, candidate, qtype, query.flags, *res)) {
      skipped_ttl = std::min(skipped_ttl, res->negative_ttl());
      continue;
    }
    w.option.status = autopath::kMatched;
    w.option.index = uint8_t(i);
    if (i > 0) {
      uint32_t ttl = std::min(
          {skipped_ttl, res->min_ttl(), res->has_data ? UINT32_MAX : res->negative_ttl()});
      Rr alias{dns::kTypeCNAME, ttl == UINT32_MAX ? 0 : ttl, {}};
      put_name(alias.rdata, candidate);
      w.alias = alias;
    }
    if ((query.flags & autopath::kFlagBoth) && qtype == dns::kTypeA) {
      w.option.flags |= autopath::kFlagBoth;
      for (const RrRef& r : store_lookup(store, candidate, dns::kTypeAAAA).records)
        if (r.rr->type == dns::kTypeAAAA) w.additional.push_back(r);
    }
    w.resolution = std::move(*res);
    return w;
  }
  if (servfail_seen) {
    w.option.status = autopath::kServfailSeen;
    w.resolution.rcode = dns::kServFail;
  } else {
    w.option.status = autopath::kExhausted;
    w.resolution = std::move(own);
  }
  return w;
}

}  // namespace rk8s::server
