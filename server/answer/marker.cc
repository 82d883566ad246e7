// SPDX-License-Identifier: Apache-2.0
#include "server/answer/marker.h"

#include <algorithm>
#include <memory>

#include "server/util/names.h"

namespace rk8s::server {
namespace {

constexpr uint32_t kMalformedTtl = 30;  // a name under the zone that is no marker name

bool rfc1123_label(const uint8_t* label, size_t len) {
  if (len == 0 || len > 63 || label[0] == '-' || label[len - 1] == '-') return false;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = label[i] | 0x20;
    if (!(c >= 'a' && c <= 'z') && !(label[i] >= '0' && label[i] <= '9') && label[i] != '-') return false;
  }
  return true;
}

// One label as a name.
Name label_name(const uint8_t* label, size_t len) {
  Name n;
  n.wire[0] = uint8_t(len);
  std::copy(label, label + len, n.wire + 1);
  n.wire[len + 1] = 0;
  n.len = uint8_t(len + 2);
  return n;
}

uint32_t known(uint32_t ttl) { return ttl == UINT32_MAX ? 0 : ttl; }

// NXDOMAIN or NODATA for the marker name, with the zone's SOA.
Resolution negative(uint8_t rcode, const Name& zone, uint32_t ttl, const Reuse& reuse) {
  auto held = std::make_shared<HeldRecords>();
  Rr soa{dns::kTypeSOA, ttl, {}};
  put_name(soa.rdata, zone);
  put_name(soa.rdata, zone);
  for (uint32_t v : {1u, 3600u, 600u, 86400u, ttl})
    for (int shift = 24; shift >= 0; shift -= 8) soa.rdata.push_back(uint8_t(v >> shift));
  Resolution out;
  out.rcode = rcode;
  out.recursive = true;
  out.authority.push_back(held->add(zone, std::move(soa)));
  out.reuse = reuse;
  out.keep = held;
  return out;
}

Resolution matched(const Ask& ask, const AutopathWalk& w) {
  auto held = std::make_shared<HeldRecords>();
  const Resolution& found = w.resolution;
  Rr alias{dns::kTypeCNAME, known(std::min(w.skipped_ttl, found.min_ttl())), {}};
  put_name(alias.rdata, w.candidate);
  Resolution out;
  out.recursive = found.recursive;
  out.has_data = true;
  out.records.push_back(held->add(ask.name, std::move(alias)));
  auto copy = [&](const std::vector<RrRef>& from, std::vector<RrRef>& to) {
    for (const RrRef& r : from) to.push_back(held->copy(found, r));
  };
  copy(found.records, out.records);
  copy(found.authority, out.authority);
  copy(found.additional, out.additional);
  out.reuse = w.reuse;
  out.keep = held;
  return out;
}

}  // namespace

bool marker_zone(const MarkerConfig& config, Name& zone) {
  return dns::name_concat(config.cluster_domain, config.marker, zone);
}

bool parse_marker_name(const Name& zone, const Name& name, Name& base, Name& ns) {
  Name rest;
  if (!dns::name_strip_suffix(name, zone, rest)) return false;
  // rest: base labels, "search", ns, the root.
  size_t at[128], n = 0;
  for (size_t off = 0; rest.wire[off] != 0; off += 1 + rest.wire[off]) at[n++] = off;
  if (n < 3) return false;
  const uint8_t* search = rest.wire + at[n - 2];
  const uint8_t* label = rest.wire + at[n - 1];
  if (search[0] != 6 || !std::equal(search + 1, search + 7, "search", [](uint8_t a, char b) {
        return (a | 0x20) == uint8_t(b);
      }))
    return false;
  if (!rfc1123_label(label + 1, label[0])) return false;
  ns = label_name(label + 1, label[0]);
  base.len = uint8_t(at[n - 2] + 1);
  std::copy(rest.wire, rest.wire + at[n - 2], base.wire);
  base.wire[at[n - 2]] = 0;
  return !dns::name_ends_with(base, zone);
}

void marker_search(const MarkerConfig& config, const Name& ns, autopath::QueryOption& out) {
  out.count = 0;
  auto add = [&](const Name& suffix) {
    for (size_t i = 0; i < out.count; i++)
      if (dns::name_equal(out.suffix[i], suffix)) return;
    if (out.count < autopath::kMaxSuffixes - 1) out.suffix[out.count++] = suffix;
  };
  Name svc, in_ns;
  if (name_prepend("svc", config.cluster_domain, svc) && dns::name_concat(ns, svc, in_ns)) add(in_ns);
  add(svc);
  add(config.cluster_domain);
  for (const Name& domain : config.host_search) add(domain);
  out.suffix[out.count++] = Name{};
}

void MarkerSource::resolve(const Ask& ask, Resolved done) {
  Name base, ns;
  if (!parse_marker_name(zone_, ask.name, base, ns)) {
    Resolution out = negative(dns::kNxDomain, zone_, kMalformedTtl, Reuse{});
    return done(&out);
  }
  autopath::QueryOption option;
  option.flags = autopath::kFlagQ | autopath::kFlagStopOnExists;
  marker_search(config_, ns, option);
  Ask first = ask;
  if (!dns::name_concat(base, option.suffix[0], first.name)) {
    Resolution out = negative(dns::kNxDomain, zone_, kMalformedTtl, Reuse{});
    return done(&out);
  }
  auto answer = [ask, done, zone = zone_](AutopathWalk& w) {
    if (w.drop) return done(nullptr);
    Resolution out;
    if (w.option.status == autopath::kMatched && w.resolution.has_data) {
      out = matched(ask, w);
    } else if (w.option.status == autopath::kMatched) {  // NODATA where the name first exists
      uint32_t ttl = std::min(w.skipped_ttl, w.resolution.negative_ttl());
      out = negative(dns::kNoError, zone, known(ttl), w.reuse);
    } else if (w.option.status == autopath::kExhausted) {
      out = negative(dns::kNxDomain, zone, known(w.skipped_ttl), w.reuse);
    } else {  // a failure, or a walk too long to finish: the client meets it on its own walk
      out = negative(dns::kNxDomain, zone, 0, Reuse{0});
    }
    out.marker_status = w.option.status;
    out.marker_walked = w.walked;
    out.marker_cut = w.cut;
    done(&out);
  };
  walk_candidates(router_, first, option, std::move(answer), held_, cuts_);
}

}  // namespace rk8s::server
