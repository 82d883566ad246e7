// SPDX-License-Identifier: Apache-2.0
// Any bytes as an upstream's reply: read, kept in a small cache, found,
// written into a reply with their TTLs counted down and read again. What
// comes back is what was cached, but for the case of names: the Writer
// compresses against earlier names whatever their case.
#include <cstddef>
#include <cstdint>

#include "server/cache/cache.h"
#include "server/cache/ttl.h"
#include "server/forward/forwarder.h"
#include "libresolv-k8s/util/text.h"

using namespace rk8s::server;
namespace dns = rk8s::dns;

namespace {

bool same_ignoring_case(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (rk8s::ascii_lower(char(a[i])) != rk8s::ascii_lower(char(b[i]))) return false;
  return true;
}

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const CacheConfig caps;
  static Cache cache(8, 1 << 20, caps.stale.max_stale);  // small: every few inputs evict
  static Cache::Clock::time_point now;
  static uint8_t out[65535];
  now += std::chrono::seconds(1);

  auto answer = std::make_shared<CachedAnswer>();
  if (!read_upstream_reply(rk8s::Bytes{data, size}, *answer)) return 0;
  uint32_t ttl = cache_ttl(*answer, caps);
  Name owner = answer->records.empty() ? Name{} : answer->owner(answer->records[0]);
  CacheKey key{name_key(owner), uint16_t(size), dns::kClassIN, bool(size & 1), bool(size & 2)};
  cache.insert(key, answer, ttl, now);

  // Fresh, stale, or past the stale window.
  uint32_t later = size ? data[size - 1] * 16u : 0;
  bool prefetch = size & 4;
  std::optional<CacheHit> hit =
      cache.find(key, now + std::chrono::seconds(later), CacheFind{true, prefetch ? &caps.prefetch : nullptr});
  if (ttl > 0 && later < ttl + caps.stale.max_stale) {
    check(hit && hit->answer == answer && hit->age == later && hit->stale == (later >= ttl));
    check(prefetch && !hit->stale ? hit->refresh_in_ms <= refresh_point_ms(ttl, caps.prefetch.percentage)
                                  : hit->refresh_in_ms == UINT32_MAX);
  }
  CacheHit served = hit && hit->answer == answer ? *hit : CacheHit{answer, ttl, 0, false};
  Resolution res = resolution_of(served, uint16_t(size), caps.stale.stale_ttl);

  dns::Writer w(out, sizeof out);
  w.header(0x1234, uint16_t(dns::kFlagQR | (answer->truncated ? dns::kFlagTC : 0) |
                            (answer->authentic_data ? dns::kFlagAD : 0) | (answer->rcode & 0xf)));
  std::vector<uint32_t> ttls;
  for (const CachedRecord& r : answer->records) {
    uint32_t t = res.ttl_of(r.rr);
    if (!write_rr(w, r.section, answer->owner(r), r.rr, t)) {
      check(w.full());
      break;
    }
    ttls.push_back(t);
  }

  CachedAnswer back;
  check(read_upstream_reply(rk8s::Bytes{out, w.size()}, back));
  check(back.rcode == (answer->rcode & 0xf) && back.authentic_data == answer->authentic_data &&
        back.truncated == (answer->truncated || w.full()));
  check(back.records.size() == ttls.size());
  for (size_t i = 0; i < ttls.size(); i++) {
    const CachedRecord &a = answer->records[i], &b = back.records[i];
    check(dns::name_equal(answer->owner(a), back.owner(b)) && a.section == b.section && a.rr.type == b.rr.type &&
          b.rr.ttl == ttls[i] && same_ignoring_case(a.rr.rdata, b.rr.rdata));
  }
  return 0;
}
